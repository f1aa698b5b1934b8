// The clang and LLVM headers that the files parsing C (the kernel frontend, the program translator,
// the host compiler) share, precompiled once per library by the build (meson's cpp_pch): parsing
// them was two thirds of each such file's compile time. External headers only: a project header
// here would recompile every one of those files whenever it changed.
#ifndef JACC_SUPPORT_CLANGHEADERS_H
#define JACC_SUPPORT_CLANGHEADERS_H

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/AST/TypeLoc.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Error.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#endif
