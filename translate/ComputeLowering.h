// A compute construct as the push that replaces it: a list of steps, each learning more of the
// construct (a Compute), from its clauses to its kernel texts, ending in one ComputePush that a
// printer per host language writes (ComputeConstruct.cpp, KernelArguments.cpp).
#ifndef JACC_TRANSLATE_COMPUTELOWERING_H
#define JACC_TRANSLATE_COMPUTELOWERING_H

#include "translate/ComputePush.h"
#include "translate/CxxLowering.h"
#include "translate/DataClauses.h"
#include "translate/DeviceScalars.h"
#include "translate/KernelNeeds.h"
#include "translate/PrivateSections.h"
#include "translate/SourceFile.h"
#include "translate/TemplateKernels.h"

#include <optional>
#include <string>
#include <vector>

namespace jacc::translate {

class ComputeLowering {
public:
  ComputeLowering(SourceFile &File, CxxLowering &Cxx, DataClauses &Data, KernelDeclarations &Needs,
                  TemplateKernels &Templates, PrivateData &Privates, DeviceScalars &Scalars)
      : File(File), Cxx(Cxx), Data(Data), Needs(Needs), Templates(Templates), Privates(Privates),
        Scalars(Scalars) {}

  /// Compute construct R as the push that replaces it: the steps below, in order; nullopt after
  /// an error (reported in the file's diagnostics).
  std::optional<ComputePush> lower(Region &R);

private:
  /// Infos on how the construct at P, pushed as Kernel with the jacc_arg initialisers Args, will
  /// run: the kernel is analysed as the runtime will analyse it.
  void describeConstruct(const Pragma &P, const std::string &Kernel,
                         const std::vector<std::string> &Args);
  struct Compute;
  /// The template parameters' lines its kernel starts with, in a template; false after an error.
  bool templateParameters(Compute &C);
  /// Its statement lowered to C (C++) and what its kernel needs; false after an error.
  bool kernelNeeds(Compute &C);
  /// Its clauses: data clauses as calls around the push, the others kept in the kernel's pragma
  /// or as async, wait and if; false after an error.
  bool clauses(Compute &C);
  /// deviceptr clauses of the data constructs around it, for the variables it uses.
  void inheritedDeviceptrs(Compute &C);
  /// NVHPC's implicit copy or copyin of the pointers no clause maps (none with default(...)).
  void implicitCopies(Compute &C);
  /// Its private arrays and private sections of pointers; false after an error.
  bool privates(Compute &C);
  /// The calls that bring the scalars with a copy on the devices to the kernel and back.
  void deviceScalarCalls(Compute &C);
  /// The kernel's arguments, with the implicit copies of whole arrays; false after an error.
  bool kernelArguments(Compute &C);
  /// Its kernel texts (in a template one per group of instantiations); false after an error
  /// of the instantiations (none when the statement's text could not be written).
  bool kernelTexts(Compute &C);
  /// What the host program around the push needs: the site, the if clause's host statement,
  /// the construct's begin and end calls, the queue checks.
  void hostSide(Compute &C);
  /// Compute construct R's statement as the host runs it (an `if` clause false): its inner
  /// pragmas as comments.
  std::string hostStatement(const Region &R) const;
  /// The kernel argument for V: its declaration, the value's address and the host temporary
  /// that holds it when needed; Before gets the arguments V's declaration refers to (the extents
  /// of a variable-length array).
  bool argDecl(clang::VarDecl *V, std::string &Decl, std::string &Temp, std::string &Value,
               std::vector<std::string> &Before, const Pragma &P);

  /// The kernel arguments (Args) for the data members K uses through `this` (at construct P),
  /// their types added to N; false after an error.
  bool memberArgs(const CxxKernel &K, const Pragma &P, KernelNeeds &N,
                  std::vector<std::string> &Args);

  SourceFile &File;
  CxxLowering &Cxx;
  DataClauses &Data;
  KernelDeclarations &Needs;
  TemplateKernels &Templates;
  PrivateData &Privates;
  DeviceScalars &Scalars;
};

} // namespace jacc::translate

#endif
