// One instantiation of clang's RecursiveASTVisitor, with virtual hooks: each visitor of jacc
// derives from DynamicASTVisitor instead of instantiating the template (about 17 s of compile
// time and 11 MB of object code each).
#ifndef JACC_SUPPORT_DYNAMICASTVISITOR_H
#define JACC_SUPPORT_DYNAMICASTVISITOR_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/TypeLoc.h"

namespace clang {
#define STMT(CLASS, PARENT) class CLASS;
#define ABSTRACT_STMT(CLASS) CLASS
#include "clang/AST/StmtNodes.inc"
#define DECL(CLASS, BASE) class CLASS##Decl;
#define ABSTRACT_DECL(DECL) DECL
#include "clang/AST/DeclNodes.inc"
} // namespace clang

namespace jacc {

/// A RecursiveASTVisitor whose Visit and Traverse hooks are virtual: a derived visitor overrides
/// VisitX(X *) for any statement or declaration class X (abstract ones too), as it would with
/// the template, and the Traverse hooks below to skip or wrap a subtree. A hook returning false
/// ends the walk. The default traversal of the overridable Traverse hooks is the template's.
class DynamicASTVisitor {
public:
  virtual ~DynamicASTVisitor();

  /// Walk into template instantiations (RecursiveASTVisitor's shouldVisitTemplateInstantiations).
  bool VisitTemplateInstantiations = false;

  bool TraverseStmt(clang::Stmt *S);
  bool TraverseDecl(clang::Decl *D);
  bool TraverseTypeLoc(clang::TypeLoc TL);

  virtual bool VisitStmt(clang::Stmt *) { return true; }
  virtual bool VisitDecl(clang::Decl *) { return true; }
#define STMT(CLASS, PARENT)                                                                        \
  virtual bool Visit##CLASS(clang::CLASS *) {                                                      \
    return true;                                                                                   \
  }
#define ABSTRACT_STMT(CLASS) CLASS
#include "clang/AST/StmtNodes.inc"
#define DECL(CLASS, BASE)                                                                          \
  virtual bool Visit##CLASS##Decl(clang::CLASS##Decl *) {                                          \
    return true;                                                                                   \
  }
#define ABSTRACT_DECL(DECL) DECL
#include "clang/AST/DeclNodes.inc"

  virtual bool TraverseForStmt(clang::ForStmt *S);
  virtual bool TraverseWhileStmt(clang::WhileStmt *S);
  virtual bool TraverseDoStmt(clang::DoStmt *S);
  virtual bool TraverseSwitchStmt(clang::SwitchStmt *S);
  virtual bool TraverseLambdaExpr(clang::LambdaExpr *E);
  virtual bool TraverseElaboratedTypeLoc(clang::ElaboratedTypeLoc TL);
  virtual bool TraverseTemplateSpecializationTypeLoc(clang::TemplateSpecializationTypeLoc TL);

private:
  struct Walk;
  /// The walk in progress, which the default Traverse hooks continue.
  Walk *Active = nullptr;
};

} // namespace jacc

#endif
