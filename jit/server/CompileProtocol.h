// The compile server's wire format: a message is a list of byte strings, framed as
// "JCS1" <count:u32> then per string <length:u64> <bytes> (host byte order: both ends are the
// same build on the same machine). The client sends a hello-checked request per compile; the
// server answers each with one reply.
#ifndef JACC_JIT_SERVER_COMPILEPROTOCOL_H
#define JACC_JIT_SERVER_COMPILEPROTOCOL_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace jacc::jit::server {

using Message = std::vector<std::string>;

/// Bumped whenever a message changes: the client refuses a server of another version.
constexpr unsigned ProtocolVersion = 2;

/// The server's first message: {"jacc-compile-server", version, jacc's version}.
Message helloMessage();
/// Null when Hello is the hello of this build; otherwise what differs.
std::optional<std::string> checkHello(const Message &Hello);

/// A host compile: {"compile-host", code, kernel source, fault kind, fault text}; the fault is
/// what the tests ask the server to fake (CompileFault; empty otherwise).
Message hostCompileRequest(llvm::StringRef Code, llvm::StringRef KernelSource,
                           llvm::StringRef FaultKind = "", llvm::StringRef FaultText = "");
/// A kernel's analysis, only to see that it ends within the limits: {"analyse-kernel", kernel
/// source, its declarations joined by NULs (C strings: none holds one)}; the reply is okReply
/// with empty strings, or an error.
Message analysisRequest(llvm::StringRef KernelSource, llvm::ArrayRef<std::string> Decls);
/// The declarations of an analysis request.
std::vector<std::string> analysisDecls(const Message &Request);
/// A reply: {"ok", object, optimised IR, remarks} or {"error", error code, message}.
Message okReply(llvm::StringRef Object, llvm::StringRef IR, llvm::StringRef Remarks);
Message errorReply(int Code, llvm::StringRef Text);

/// The bytes of a message on the wire.
std::string encode(llvm::ArrayRef<std::string> M);

/// Messages out of a byte stream received in pieces.
class MessageReader {
public:
  /// Add received bytes.
  void feed(llvm::StringRef Bytes) { Buffer.append(Bytes.data(), Bytes.size()); }
  /// The next complete message, if one has arrived; an error for bytes that are not a message
  /// (the other end is not a compile server, or is broken).
  llvm::Expected<std::optional<Message>> next();

private:
  std::string Buffer;
};

/// Write all of Bytes to a socket (no SIGPIPE when the peer is gone: an error instead).
llvm::Error sendAll(int Fd, llvm::StringRef Bytes);

} // namespace jacc::jit::server

#endif
