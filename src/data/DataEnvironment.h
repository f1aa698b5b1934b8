// The data environment (libgomp's oacc-mem.c room): the present table of mapped host ranges with a
// copy on every device, the program's own device memory (acc_malloc), and the policies that
// enter, exit, update and copy them. Its operations lock the table themselves; callers hold the
// runtime (the device list does not change under them).
#ifndef JACC_SRC_DATA_DATAENVIRONMENT_H
#define JACC_SRC_DATA_DATAENVIRONMENT_H

#include "src/Device.h"
#include "src/data/PresentTable.h"
#include "src/data/StridedRuns.h"

#include <llvm/ADT/ArrayRef.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace jacc {

/// Copies between devices a launch needed: how many bytes, and how long the copies took.
struct CopyCost {
  uint64_t Bytes = 0;
  double Seconds = 0;
};

/// Where new mappings are to live (Gecko's memory at a location, docs/locations.md): only the
/// devices under the location get a copy.
struct DataPlacement {
  std::string Location; ///< the location's name, for messages
  HolderSet Devices = 0; ///< the devices under it now (never empty)
};

/// JACC_MALLOC: when an acc_malloc block gets a copy on every device of its location.
enum class UserBlockCopies : uint8_t {
  Never,            ///< one: the block is its device's alone
  Always,           ///< every
  UnlessNativeCode, ///< auto: unless a device holding it lets code outside jacc write it
};

class DataEnvironment {
public:
  /// The devices every mapping has a copy on, in device order (set by init, cleared by finalize).
  void attach(llvm::ArrayRef<std::unique_ptr<Device>> Devices) { this->Devices = Devices; }
  /// JACC_MEMORY=unified: new mappings share one memory among the devices (UnifiedMemory.cpp).
  void setUnified(bool On) { Unified = On; }
  bool unified() const { return Unified; }
  /// JACC_MALLOC: whether acc_malloc blocks get a copy on the other devices of their location.
  void setUserBlockCopies(UserBlockCopies When) { BlockCopies = When; }

  // --- Mapped data (DataEnvironment.cpp). Api names the caller in messages; host ranges are
  // non-empty and not null (the runtime's entry points treat those as no-ops). ---

  /// create / copyin: present-or-create, dynamic count + 1; a new mapping is allocated on every
  /// device first (nothing is left behind on failure), then copied in when Copy, or zeroed when
  /// Zero (OpenACC 3.3's `create(zero: ...)`; present data is left as it is). At: a new mapping
  /// gets copies on its devices only; present data must have a copy on each of them
  /// (InvalidArgument naming both locations otherwise). Null: every device, and present data is
  /// present wherever it lives.
  llvm::Error enter(void *P, size_t Bytes, bool Copy, const char *Api, bool Zero = false,
                    const DataPlacement *At = nullptr);
  /// How an exit treats data it cannot undo.
  enum class ExitRules {
    Jacc,   ///< jacc_copyout / jacc_delete: absent data, or no dynamic count left, is an error
    OpenACC ///< acc_copyout / acc_delete: both do nothing; acc_map_data data cannot reach zero
  };
  /// Decrement the dynamic count (Finalize: set it to zero); at zero, with no structured
  /// reference, wait for the kernels using it, copy back from device 0 (CopyBack) and free.
  llvm::Error exit(void *P, size_t Bytes, bool CopyBack, bool Finalize, ExitRules Rules,
                   const char *Api);
  /// update device (every copy) / self (from device 0) of a mapped (sub-)range.
  llvm::Error update(void *P, size_t Bytes, bool ToDevice, const char *Api);
  bool isPresent(const void *P, size_t Bytes);
  /// Whether [P, P+Bytes) lies inside one mapping that has a copy on Device (acc_is_present).
  bool isPresentOn(const void *P, size_t Bytes, unsigned Device);
  /// Device's address of the mapped host address P, whose mapping is made current on Device
  /// first (the program may read it through the address); null when P is not mapped, or its
  /// mapping lives at a location without Device (Sole: then InvalidArgument naming both). Sole
  /// (host_data use_device): the program may also write the copy through it (an MPI_Recv), so
  /// Device's copy becomes the mapping's only current one, as if a kernel there wrote it all.
  llvm::Expected<void *> devicePtr(const void *P, unsigned Device, bool Sole = false);
  /// The host address whose copy on Device is at DevicePtr; null when no mapping has it.
  void *hostPtr(const void *DevicePtr, unsigned Device);
  enum class AttachOp { Attach, Detach, DetachFinalize };
  /// acc_attach / acc_detach[_finalize] of the pointer at host address PtrAddr (Attach.cpp):
  /// the attachment counter + 1 (Detach: - 1, DetachFinalize: to 0). Attaching from 0 writes
  /// into every device's copy of the pointer that device's address of its target; detaching to
  /// 0 writes the host's value back. No action when PtrAddr or its target is not mapped, or the
  /// pointer is null.
  llvm::Error attachPointer(void **PtrAddr, AttachOp Op, const char *Api);
  /// acc_memcpy_d2d: the mapped range SrcP's copy on SrcDevice to DstP's copy on DstDevice.
  llvm::Error copyBetweenDevices(void *DstP, const void *SrcP, size_t Bytes, unsigned DstDevice,
                                 unsigned SrcDevice, const char *Api);

  // --- The program's device memory (UserMemory.cpp). Device is a valid device index. ---

  /// acc_malloc: Bytes of Device's memory, owned by the program (acc_free, or finalize, frees it).
  /// With copies of user blocks on (setUserBlockCopies), the other devices of At (null: every
  /// device) get copies of their own, so that kernels given the block by deviceptr split over it
  /// (UserBlockCopies.cpp).
  llvm::Expected<void *> allocateUser(unsigned Device, size_t Bytes, const char *Api,
                                      const DataPlacement *At = nullptr);
  /// acc_free of an allocateUser() block that no acc_map_data mapping uses.
  llvm::Error releaseUser(void *DevicePtr, const char *Api);
  /// acc_map_data: map [P, P+Bytes), which must be absent, with DevicePtr as Device's copy; the
  /// other devices (those of At, which must include Device) get copies of their own,
  /// initialised from DevicePtr. Dynamic count 1.
  llvm::Error mapUserData(void *P, void *DevicePtr, size_t Bytes, unsigned Device,
                          const char *Api, const DataPlacement *At = nullptr);
  /// acc_unmap_data: end a mapping made by mapUserData (P its start), whatever its dynamic count;
  /// frees the other devices' copies, never the program's memory.
  llvm::Error unmapUserData(void *P, const char *Api);
  enum class MemcpyKind { HostToDevice, DeviceToHost, DeviceToDevice };
  /// acc_memcpy_to_device / _from_device / _device on Device's memory, after the device's queued
  /// work. Device addresses must lie in one block jacc knows on Device: an allocateUser() block or
  /// a mapping's copy.
  llvm::Error copyDeviceMemory(MemcpyKind Kind, void *Dst, const void *Src, size_t Bytes,
                               unsigned Device, const char *Api);
  /// The device whose memory P is in: a mapping's copy (then *Owner is that mapping; mappings
  /// first, as an acc_map_data copy is an acc_malloc block too), or an allocateUser() block's;
  /// none for any other address. Caller holds the table's lock.
  std::optional<unsigned> deviceOwning(const void *P, Mapping **Owner);
  /// The mapping that keeps the copies of the allocateUser() block containing P on the other
  /// devices (its range is the block's own addresses), or null when the block has none or P lies
  /// in no block. Caller holds the table's lock.
  Mapping *userBlockCopies(const void *P);

  // --- One memory for every device, JACC_MEMORY=unified (UnifiedMemory.cpp). ---

  /// Move what a device's launch needs of unified mapping M (Ranges, offsets from its Begin)
  /// next to the device ahead of the launch; ReadMostly: no kernel is about to write it.
  llvm::Error prefetch(const Mapping &M, const ByteRanges &Ranges, unsigned Device,
                       bool ReadMostly);

  // --- Which copies are current (Coherence.cpp). Caller holds the table's lock. ---

  /// Every device, as a holder set.
  HolderSet allDevices() const;
  /// A new mapping's copies are all current.
  void initValidity(Mapping &M);
  /// Where M lives, for messages: "location 'LocG' (devices 2, 3)", or "every device".
  static std::string describeHome(const Mapping &M);
  /// "devices 2, 3" / "device 1" / "no device".
  static std::string describeDevices(HolderSet S);
  /// Make bytes [B, E) of M (offsets from its Begin) current on Device: each run it lacks is
  /// copied from the lowest-numbered device holding it, once both devices' queued work is done.
  /// The bytes copied and the time the copies took are added to Cost when given.
  llvm::Error makeCurrent(Mapping &M, uint64_t B, uint64_t E, unsigned Device,
                          CopyCost *Cost = nullptr);
  /// The same for several ranges (a column band: one per row), fetched together: runs of equal
  /// width Pitch apart from one device in one strided copy. AllHeld: set to whether Device now
  /// holds every byte of them (not so for bytes no device holds: created, never written).
  llvm::Error makeCurrent(Mapping &M, const ByteRanges &Ranges, unsigned Device,
                          CopyCost *Cost = nullptr, bool *AllHeld = nullptr);
  /// Copy [P, P+Bytes), inside M, to the host, each run from a device holding it (after the
  /// caller waited for the kernels using M).
  llvm::Error gatherToHost(const Mapping &M, void *P, size_t Bytes);
  /// The mapping whose copy on Device contains [P, P+Bytes), or null.
  Mapping *mappingOfCopy(const void *P, size_t Bytes, unsigned Device);

  // --- For the scheduler and the runtime's lifecycle. ---

  /// The table, for a push that binds its arguments under lock() (mutex: the table's).
  PresentTable &table() { return Table; }
  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(Table.mutex()); }
  /// Read Device's copy of [P, P+Bytes), inside M, into Out (caller holds the table's lock).
  llvm::Error readCopy(Mapping &M, const void *P, size_t Bytes, unsigned Device, void *Out) {
    uint64_t B = reinterpret_cast<uintptr_t>(P) - M.Begin;
    if (auto E = makeCurrent(M, B, B + Bytes, Device))
      return E;
    return Devices[Device]->copyToHost(Out, M.translate(P, Device), Bytes);
  }
  /// Wait for the queued kernels that use M (caller holds the table's lock).
  llvm::Error waitForUses(const Mapping &M);
  /// After one device's copy of M was copied over the others: each device's copy of the
  /// pointers attached in M points at its own targets again (caller holds the table's lock).
  llvm::Error reattachCopies(const Mapping &M) {
    return reattach(M, reinterpret_cast<void *>(M.Begin), M.bytes());
  }
  /// finalize: free every mapping's copies and the program's device memory (never memory the
  /// program passed to acc_map_data), after the devices completed their work.
  llvm::Error releaseAll();

private:
  /// An error when [P, P+Bytes) wraps past the top of the address space (no such range exists,
  /// and its end would compare below its start in every lookup).
  static llvm::Error checkRange(const char *Api, const void *P, size_t Bytes);
  /// InvalidArgument unless the program may write every byte of [P, P + Bytes): a copy back.
  static llvm::Error checkWritable(const char *Api, const void *P, size_t Bytes);
  static llvm::Error partialError(const char *Api, const void *P, size_t Bytes, const Mapping &M);
  static llvm::Error notPresentError(const char *Api, const void *P, size_t Bytes,
                                     const char *Hint);
  /// finalize: free the allocateUser() blocks and keep the program's acc_map_data memory out of
  /// the mappings' release (caller holds the table's lock).
  llvm::Error releaseUserMemory();
  /// After [P, P+Bytes) of M was copied to the host: the attached pointers in it get their host
  /// values back (Attach.cpp). Caller holds the table's lock.
  static void restoreHostPointers(const Mapping &M, void *P, size_t Bytes);
  /// After [P, P+Bytes) of M was written on every device from the host: its attached pointers
  /// point at their targets' copies again (Attach.cpp). Caller holds the table's lock.
  llvm::Error reattach(const Mapping &M, void *P, size_t Bytes);
  /// After runs Copied of M (offsets from its Begin) were copied into Device's copy from another
  /// device: the attached pointers among them hold the other device's addresses, and get
  /// Device's own back (Attach.cpp).
  llvm::Error reattachOn(const Mapping &M, unsigned Device, const ByteRanges &Copied);
  /// Write, into every device's copy of the pointer at PtrAddr (in M), that device's address of
  /// Target (TargetMap: its mapping), or Target itself when TargetMap is null.
  llvm::Error writePointer(const Mapping &M, void **PtrAddr, void *Target,
                           const Mapping *TargetMap);
  /// The one memory a new unified mapping of [P, P+Bytes) gives the devices of Home: P itself
  /// when each of them addresses host memory, else managed memory of the first one that does
  /// not (*Owner: that device, else -1).
  llvm::Expected<void *> unifiedCopy(void *P, size_t Bytes, HolderSet Home, int *Owner);
  /// Whether device D's copy of M is the memory of a lower-numbered device's (unified): a copy
  /// into it was made already.
  static bool sharesEarlierCopy(const Mapping &M, unsigned D);
  /// The devices a new mapping placed At gets copies on (null: every device).
  HolderSet homeOf(const DataPlacement *At) const { return At ? At->Devices : allDevices(); }
  /// Entering present data M placed At: an error unless M has a copy on each device of At.
  static llvm::Error checkPresentAt(const Mapping &M, const DataPlacement *At, const char *Api,
                                    const void *P, size_t Bytes);
  /// An error: M has no copy on Device (it lives at a location without it); What says what
  /// needed it.
  static llvm::Error noCopyError(const Mapping &M, unsigned Device, const llvm::Twine &What);
  /// Free the copies of M that jacc allocated: not the program's own (acc_map_data), and a
  /// unified memory once (DevicePtrs may be partial: a failed enter).
  llvm::Error releaseCopies(const Mapping &M);
  /// Free every copy of M but the program's own (acc_map_data) and drop it from the table.
  llvm::Error unmap(Mapping &M, const char *Api);
  /// Whether [P, P+Bytes) lies inside one block of Device's memory that jacc knows (an
  /// allocateUser() block or a mapping's copy); caller holds the table's lock.
  bool knownDeviceRange(const void *P, size_t Bytes, unsigned Device);
  /// acc_malloc blocks by device address: their device and size (guarded by Table.mutex()).
  struct UserAllocation {
    unsigned Device = 0;
    size_t Bytes = 0;
    /// Copies on the other devices of its location, current as the validity map says, as a
    /// mapping's are; null: the block is Device's alone.
    std::unique_ptr<Mapping> Copies;
  };
  using UserAllocations = std::map<uintptr_t, UserAllocation>;
  /// The allocateUser() block containing address A, or end().
  UserAllocations::const_iterator userBlockContaining(uintptr_t A) const;
  UserAllocations::iterator userBlockContaining(uintptr_t A);
  /// Give block A at address Begin copies on the other devices of Home; none when an allocation
  /// fails (the block stays Device's alone). Caller holds the table's lock.
  void copyUserBlock(uintptr_t Begin, UserAllocation &A, HolderSet Home);
  /// Make block A whole on its device again and free its copies (the program hands its memory
  /// to acc_map_data or acc_free). Caller holds the table's lock.
  llvm::Error dropUserBlockCopies(UserAllocation &A);

  llvm::ArrayRef<std::unique_ptr<Device>> Devices;
  bool Unified = false;
  UserBlockCopies BlockCopies = UserBlockCopies::UnlessNativeCode;
  PresentTable Table;
  UserAllocations UserBlocks;
};

} // namespace jacc

#endif
