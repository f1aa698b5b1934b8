// The compile server's wire format (see CompileProtocol.h).
#include "jit/server/CompileProtocol.h"

#include "support/Error.h"

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <sys/socket.h>

namespace jacc::jit::server {

static constexpr char Magic[4] = {'J', 'C', 'S', '1'};
/// Bounds on what a reader accepts, so that garbage cannot make it allocate without limit.
static constexpr uint32_t MaxStrings = 16;
static constexpr uint64_t MaxBytes = uint64_t(1) << 32;

Message helloMessage() {
  return {"jacc-compile-server", std::to_string(ProtocolVersion), JACC_VERSION};
}

std::optional<std::string> checkHello(const Message &Hello) {
  if (Hello.size() != 3 || Hello[0] != "jacc-compile-server")
    return std::string("it did not greet as a jacc compile server");
  if (Hello[1] != std::to_string(ProtocolVersion) || Hello[2] != JACC_VERSION)
    return "it is jacc " + Hello[2] + " (protocol " + Hello[1] + "), this library is jacc " +
           JACC_VERSION + " (protocol " + std::to_string(ProtocolVersion) + ")";
  return std::nullopt;
}

Message hostCompileRequest(llvm::StringRef Code, llvm::StringRef KernelSource,
                           llvm::StringRef FaultKind, llvm::StringRef FaultText) {
  return {"compile-host", Code.str(), KernelSource.str(), FaultKind.str(), FaultText.str()};
}

Message analysisRequest(llvm::StringRef KernelSource, llvm::ArrayRef<std::string> Decls) {
  std::string Joined;
  for (const std::string &D : Decls)
    Joined.append(D.c_str(), D.size() + 1); // each with its NUL
  return {"analyse-kernel", KernelSource.str(), Joined};
}

std::vector<std::string> analysisDecls(const Message &Request) {
  std::vector<std::string> Decls;
  llvm::StringRef Rest = Request.size() == 3 ? llvm::StringRef(Request[2]) : "";
  while (!Rest.empty()) {
    auto [Decl, After] = Rest.split('\0');
    Decls.push_back(Decl.str());
    Rest = After;
  }
  return Decls;
}

Message okReply(llvm::StringRef Object, llvm::StringRef IR, llvm::StringRef Remarks) {
  return {"ok", Object.str(), IR.str(), Remarks.str()};
}

Message errorReply(int Code, llvm::StringRef Text) {
  return {"error", std::to_string(Code), Text.str()};
}

template <typename T> static void put(std::string &Out, T V) {
  Out.append(reinterpret_cast<const char *>(&V), sizeof V);
}

std::string encode(llvm::ArrayRef<std::string> M) {
  std::string Out(Magic, sizeof Magic);
  put(Out, uint32_t(M.size()));
  for (const std::string &S : M) {
    put(Out, uint64_t(S.size()));
    Out += S;
  }
  return Out;
}

llvm::Expected<std::optional<Message>> MessageReader::next() {
  auto Bad = [](const char *What) {
    return makeError(ErrorCode::Internal,
                     llvm::Twine("the compile server sent a malformed message (") + What + ")");
  };
  size_t At = 0;
  auto Have = [&](size_t N) { return Buffer.size() - At >= N; };
  if (!Have(sizeof Magic + sizeof(uint32_t)))
    return std::nullopt;
  if (std::memcmp(Buffer.data(), Magic, sizeof Magic) != 0)
    return Bad("bad header");
  uint32_t Count;
  std::memcpy(&Count, Buffer.data() + sizeof Magic, sizeof Count);
  if (Count > MaxStrings)
    return Bad("too many parts");
  At = sizeof Magic + sizeof Count;
  Message M;
  for (uint32_t I = 0; I < Count; ++I) {
    uint64_t Len;
    if (!Have(sizeof Len))
      return std::nullopt;
    std::memcpy(&Len, Buffer.data() + At, sizeof Len);
    if (Len > MaxBytes)
      return Bad("a part too large");
    At += sizeof Len;
    if (!Have(Len))
      return std::nullopt;
    M.emplace_back(Buffer, At, Len);
    At += Len;
  }
  Buffer.erase(0, At);
  return M;
}

llvm::Error sendAll(int Fd, llvm::StringRef Bytes) {
  while (!Bytes.empty()) {
    ssize_t N = ::send(Fd, Bytes.data(), Bytes.size(), MSG_NOSIGNAL);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return makeError(ErrorCode::Compile,
                       llvm::Twine("cannot write to the compile server: ") + std::strerror(errno));
    Bytes = Bytes.drop_front(size_t(N));
  }
  return llvm::Error::success();
}

} // namespace jacc::jit::server
