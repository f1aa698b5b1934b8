// The location hierarchy: parsing the configuration, binding device locations to devices,
// changes at run time, and the shares of a launch targeting a location.
#include "src/launch/Locations.h"

#include "support/Error.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace jacc {

namespace {

const char *Syntax = "lines are 'location <name> <kind> [all]' and "
                     "'hierarchy <parent> <+|-> <child>[,<child>...]'";

/// "memory, host, cuda or virtual": the kinds a location may have.
std::string kindList(llvm::ArrayRef<std::string> DeviceKinds) {
  std::string List = "memory";
  for (const std::string &D : DeviceKinds)
    List += ", " + D;
  return List + " or virtual";
}

bool validName(llvm::StringRef Name) {
  return !Name.empty() && llvm::all_of(Name, [](char C) {
    return llvm::isAlnum(C) || C == '_' || C == '.' || C == '-' || C == ':';
  });
}

llvm::Error invalid(const llvm::Twine &Why) {
  return makeError(ErrorCode::InvalidArgument, Why);
}

} // namespace

llvm::Expected<LocationTree> LocationTree::parse(llvm::StringRef Text, llvm::StringRef Name,
                                                 llvm::ArrayRef<llvm::StringRef> DeviceKinds) {
  LocationTree T;
  for (llvm::StringRef D : DeviceKinds)
    T.DeviceKinds.push_back(D.str());
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Text.split(Lines, '\n');
  for (size_t N = 0; N < Lines.size(); ++N) {
    auto Bad = [&](const llvm::Twine &Why) {
      return invalid(Name + ":" + llvm::Twine(N + 1) + ": " + Why);
    };
    llvm::StringRef Line = Lines[N].split('#').first.trim();
    if (Line.empty())
      continue;
    llvm::SmallVector<llvm::StringRef, 8> Words;
    Line.split(Words, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef &W : Words)
      W = W.trim();
    llvm::StringRef Verb = Words[0];
    if (Verb == "location") {
      if (Words.size() < 3 || Words.size() > 4)
        return Bad("'location' takes a name, a kind and optionally 'all'; " + llvm::Twine(Syntax));
      if (!validName(Words[1]))
        return Bad("'" + Words[1] + "' is not a location name (letters, digits, _ . - :)");
      if (T.has(Words[1]))
        return Bad("location '" + Words[1] + "' is declared twice");
      Location L;
      L.Name = Words[1].str();
      std::string Word = Words[2].lower();
      if (Word == "memory")
        L.K = Kind::Memory;
      else if (Word == "virtual")
        L.K = Kind::Virtual;
      else if (llvm::is_contained(T.DeviceKinds, Word)) {
        L.K = Kind::Device;
        L.DeviceKind = Word;
      } else
        return Bad("'" + Words[2] + "' is not a location kind: use " + kindList(T.DeviceKinds));
      L.All = Words.size() == 4;
      if (L.All && Words[3] != "all")
        return Bad("'" + Words[3] + "' after the kind: only 'all' may follow it");
      if (L.All && L.K != Kind::Device)
        return Bad("'all' covers the devices of a kind: only device locations take it");
      T.Locs.push_back(std::move(L));
    } else if (Verb == "hierarchy") {
      // "hierarchy P + a,b" or "hierarchy P + a, b": the children are the words after the sign.
      if (Words.size() < 4 || (Words[2] != "+" && Words[2] != "-"))
        return Bad("'hierarchy' takes a parent, + or -, and children; " + llvm::Twine(Syntax));
      std::string Children = llvm::join(llvm::ArrayRef(Words).drop_front(3), ",");
      llvm::SmallVector<llvm::StringRef, 8> Names;
      llvm::StringRef(Children).split(Names, ',', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef C : Names) {
        llvm::Error E =
            Words[2] == "+" ? T.addChild(Words[1], C.trim()) : T.removeChild(Words[1], C.trim());
        if (E)
          return Bad(llvm::toString(std::move(E)));
      }
    } else {
      return Bad("'" + Verb + "' is not a statement; " + Syntax);
    }
  }
  if (T.Locs.empty())
    return invalid(Name + ": no location is declared; " + Syntax);
  return T;
}

std::optional<unsigned> LocationTree::find(llvm::StringRef Name) const {
  for (unsigned I = 0; I < Locs.size(); ++I)
    if (Locs[I].Name == Name)
      return I;
  return std::nullopt;
}

llvm::Expected<unsigned> LocationTree::lookup(llvm::StringRef Name) const {
  if (std::optional<unsigned> I = find(Name))
    return *I;
  std::string Known;
  for (const Location &L : Locs)
    Known += (Known.empty() ? "" : ", ") + L.Name;
  return invalid("no location is named '" + Name + "' (the locations: " + Known + ")");
}

llvm::Error LocationTree::bind(llvm::ArrayRef<std::string> Kinds) {
  for (Location &L : Locs)
    L.Devices.clear();
  for (const std::string &K : DeviceKinds) {
    std::vector<unsigned> Free;
    for (unsigned D = 0; D < Kinds.size(); ++D)
      if (Kinds[D] == K)
        Free.push_back(D);
    size_t Next = 0;
    unsigned Wanted = 0;
    for (Location &L : Locs)
      if (L.DeviceKind == K && !L.All) {
        ++Wanted;
        if (Next < Free.size())
          L.Devices.push_back(Free[Next++]);
      }
    if (Wanted > Free.size())
      return invalid(llvm::Twine("the configuration has ") + llvm::Twine(Wanted) + " " + K +
                     " location(s) and the runtime " + llvm::Twine(Free.size()) + " " + K +
                     " device(s): give JACC_DEVICES as many (e.g. " + K + ":" +
                     llvm::Twine(Wanted) + ")");
    for (Location &L : Locs)
      if (L.DeviceKind == K && L.All)
        L.Devices.assign(Free.begin() + Next, Free.end());
  }
  return llvm::Error::success();
}

llvm::Error LocationTree::addVirtual(llvm::StringRef Name) {
  if (!validName(Name))
    return invalid("'" + Name + "' is not a location name (letters, digits, _ . - :)");
  if (has(Name))
    return invalid("location '" + Name + "' exists already");
  Location L;
  L.Name = Name.str();
  Locs.push_back(std::move(L));
  return llvm::Error::success();
}

llvm::Expected<std::pair<unsigned, unsigned>>
LocationTree::lookupPair(llvm::StringRef Parent, llvm::StringRef Child) const {
  auto P = lookup(Parent);
  if (!P)
    return P.takeError();
  auto C = lookup(Child);
  if (!C)
    return C.takeError();
  return std::make_pair(*P, *C);
}

llvm::Error LocationTree::addChild(llvm::StringRef Parent, llvm::StringRef Child) {
  auto PC = lookupPair(Parent, Child);
  if (!PC)
    return PC.takeError();
  auto [P, C] = *PC;
  if (Locs[P].K == Kind::Device)
    return invalid("'" + Parent + "' is a " + Locs[P].DeviceKind +
                   " device location: devices have no children (make it a virtual location's "
                   "child instead)");
  for (std::optional<unsigned> A = P; A; A = Locs[*A].Parent)
    if (*A == C)
      return invalid("'" + Child + "' under '" + Parent + "' would make a cycle: '" + Parent +
                     "' is in '" + Child + "''s sub-tree");
  if (std::optional<unsigned> Old = Locs[C].Parent)
    llvm::erase_value(Locs[*Old].Children, C);
  Locs[C].Parent = P;
  Locs[P].Children.push_back(C);
  return llvm::Error::success();
}

llvm::Error LocationTree::removeChild(llvm::StringRef Parent, llvm::StringRef Child) {
  auto PC = lookupPair(Parent, Child);
  if (!PC)
    return PC.takeError();
  auto [P, C] = *PC;
  if (Locs[C].Parent != P)
    return invalid("'" + Child + "' is not a child of '" + Parent + "'");
  llvm::erase_value(Locs[P].Children, C);
  Locs[C].Parent.reset();
  return llvm::Error::success();
}

std::string LocationTree::root() const {
  for (const Location &L : Locs)
    if (!L.Parent)
      return L.Name;
  return Locs.empty() ? "" : Locs.front().Name;
}

void LocationTree::collect(unsigned L, std::vector<unsigned> &Out) const {
  for (unsigned D : Locs[L].Devices)
    if (!llvm::is_contained(Out, D))
      Out.push_back(D);
  for (unsigned C : Locs[L].Children)
    collect(C, Out);
}

std::vector<unsigned> LocationTree::devicesUnder(llvm::StringRef Name) const {
  std::vector<unsigned> Out;
  if (std::optional<unsigned> L = find(Name))
    collect(*L, Out);
  return Out;
}

void LocationTree::staticWeights(unsigned L, double Weight, std::vector<double> &Out) const {
  // The parts: each bound device of the location (an `all` location's devices are its
  // children, in effect), then each child with devices under it.
  std::vector<unsigned> Parts;
  for (unsigned C : Locs[L].Children) {
    std::vector<unsigned> Under;
    collect(C, Under);
    if (!Under.empty())
      Parts.push_back(C);
  }
  size_t N = Locs[L].Devices.size() + Parts.size();
  if (!N)
    return;
  for (unsigned D : Locs[L].Devices)
    Out[D] += Weight / N;
  for (unsigned C : Parts)
    staticWeights(C, Weight / N, Out);
}

llvm::Expected<std::vector<SplitShare>>
LocationTree::sharesOf(llvm::StringRef Name, const Distribution &D, unsigned NumDevices,
                       llvm::ArrayRef<uint64_t> Pending) const {
  auto L = lookup(Name);
  if (!L)
    return L.takeError();
  std::vector<unsigned> Under;
  collect(*L, Under);
  if (Under.empty())
    return invalid("location '" + Name + "' has no device under it: add one with 'hierarchy " +
                   Name + " + <device location>' or jacc_location_add_child");
  Distribution Flat;
  Flat.How = Distribution::Kind::Weights;
  Flat.Values.assign(NumDevices, 0.0);
  using K = Distribution::Kind;
  switch (D.How) {
  case K::Static:
    staticWeights(*L, 1.0, Flat.Values);
    break;
  case K::Flatten:
    for (unsigned Dev : Under)
      Flat.Values[Dev] = 1;
    break;
  case K::Any: {
    unsigned Idle = Under.front();
    for (unsigned Dev : Under)
      if (Dev < Pending.size() && Pending[Dev] < Pending[Idle])
        Idle = Dev;
    Flat.Values[Idle] = 1;
    break;
  }
  case K::Percentage:
  case K::Range:
  case K::Weights:
    if (D.Values.size() != Under.size())
      return invalid("policy '" + D.Text + "' lists " + llvm::Twine(D.Values.size()) +
                     " value(s) and location '" + Name + "' has " + llvm::Twine(Under.size()) +
                     " device(s) under it: give one value per device");
    Flat.How = D.How == K::Range ? K::Range : K::Weights;
    for (size_t I = 0; I < Under.size(); ++I)
      Flat.Values[Under[I]] = D.Values[I];
    break;
  case K::Auto:
    return invalid("policy 'auto' balances over every device; it cannot target location '" + Name +
                   "' (use static, flatten, percentage, range, weights or any)");
  }
  // Exact fractions for static's even parts: scaled so that a tree of up to a few thousand
  // leaves gives whole numbers (weights of whole values are shared exactly).
  if (D.How == K::Static) {
    constexpr double Scale = 720720; // divisible by 1..16, and by their products up to it
    for (double &V : Flat.Values)
      V = std::round(V * Scale);
  }
  return jacc::sharesOf(Flat, NumDevices, 0);
}

llvm::Error LocationTree::checkPolicy(const Distribution &D, llvm::StringRef Name) const {
  size_t Under = devicesUnder(Name).size();
  if (D.Values.empty() || D.Values.size() == Under)
    return llvm::Error::success();
  return invalid("policy '" + D.Text + "' gives " + llvm::Twine(D.Values.size()) +
                 " values for the " + llvm::Twine(Under) + " device(s) under location '" + Name +
                 "': give one per device, in the hierarchy's order");
}

std::string LocationTree::describe() const {
  std::string Out;
  std::function<void(unsigned)> Print = [&](unsigned L) {
    const Location &Loc = Locs[L];
    Out += Loc.Name + "(" +
           (Loc.K == Kind::Memory    ? "memory"
            : Loc.K == Kind::Virtual ? "virtual"
                                     : Loc.DeviceKind);
    if (!Loc.Devices.empty()) {
      Out += ": device";
      for (unsigned D : Loc.Devices)
        Out += " " + std::to_string(D);
    }
    Out += ")";
    if (!Loc.Children.empty()) {
      Out += " {";
      for (unsigned C : Loc.Children) {
        Out += " ";
        Print(C);
      }
      Out += " }";
    }
  };
  for (unsigned I = 0; I < Locs.size(); ++I)
    if (!Locs[I].Parent) {
      if (!Out.empty())
        Out += "; ";
      Print(I);
    }
  return Out;
}

} // namespace jacc
