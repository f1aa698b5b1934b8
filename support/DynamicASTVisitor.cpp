// The one RecursiveASTVisitor instantiation behind DynamicASTVisitor's virtual hooks.
#include "support/DynamicASTVisitor.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <utility>

namespace jacc {

using namespace clang;

/// Forwards every hook of the template to the dynamic visitor.
struct DynamicASTVisitor::Walk : RecursiveASTVisitor<Walk> {
  using Base = RecursiveASTVisitor<Walk>;
  DynamicASTVisitor &V;
  Walk *Outer; ///< the walk in progress before this one (a hook may start another)
  /// The walk the default Traverse hooks continue while it lives.
  explicit Walk(DynamicASTVisitor &V) : V(V), Outer(std::exchange(V.Active, this)) {}
  ~Walk() { V.Active = Outer; }

  bool shouldVisitTemplateInstantiations() const { return V.VisitTemplateInstantiations; }

  bool VisitStmt(Stmt *S) { return V.VisitStmt(S); }
  bool VisitDecl(Decl *D) { return V.VisitDecl(D); }
#define STMT(CLASS, PARENT)                                                                        \
  bool Visit##CLASS(CLASS *S) {                                                                    \
    return V.Visit##CLASS(S);                                                                      \
  }
#define ABSTRACT_STMT(CLASS) CLASS
#include "clang/AST/StmtNodes.inc"
#define DECL(CLASS, BASE)                                                                          \
  bool Visit##CLASS##Decl(CLASS##Decl *D) {                                                        \
    return V.Visit##CLASS##Decl(D);                                                                \
  }
#define ABSTRACT_DECL(DECL) DECL
#include "clang/AST/DeclNodes.inc"

  // Declared without the data-recursion queue: the template then calls these directly.
  bool TraverseForStmt(ForStmt *S) {
    return V.TraverseForStmt(S);
  }
  bool TraverseWhileStmt(WhileStmt *S) {
    return V.TraverseWhileStmt(S);
  }
  bool TraverseDoStmt(DoStmt *S) {
    return V.TraverseDoStmt(S);
  }
  bool TraverseSwitchStmt(SwitchStmt *S) {
    return V.TraverseSwitchStmt(S);
  }
  bool TraverseLambdaExpr(LambdaExpr *E) {
    return V.TraverseLambdaExpr(E);
  }
  bool TraverseElaboratedTypeLoc(ElaboratedTypeLoc TL) {
    return V.TraverseElaboratedTypeLoc(TL);
  }
  bool TraverseTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) {
    return V.TraverseTemplateSpecializationTypeLoc(TL);
  }
};

DynamicASTVisitor::~DynamicASTVisitor() = default;

bool DynamicASTVisitor::TraverseStmt(Stmt *S) {
  return Walk(*this).TraverseStmt(S);
}

bool DynamicASTVisitor::TraverseDecl(Decl *D) {
  return Walk(*this).TraverseDecl(D);
}

bool DynamicASTVisitor::TraverseTypeLoc(TypeLoc TL) {
  return Walk(*this).TraverseTypeLoc(TL);
}

bool DynamicASTVisitor::TraverseForStmt(ForStmt *S) {
  return Active->Base::TraverseForStmt(S);
}
bool DynamicASTVisitor::TraverseWhileStmt(WhileStmt *S) {
  return Active->Base::TraverseWhileStmt(S);
}
bool DynamicASTVisitor::TraverseDoStmt(DoStmt *S) {
  return Active->Base::TraverseDoStmt(S);
}
bool DynamicASTVisitor::TraverseSwitchStmt(SwitchStmt *S) {
  return Active->Base::TraverseSwitchStmt(S);
}
bool DynamicASTVisitor::TraverseLambdaExpr(LambdaExpr *E) {
  return Active->Base::TraverseLambdaExpr(E);
}
bool DynamicASTVisitor::TraverseElaboratedTypeLoc(ElaboratedTypeLoc TL) {
  return Active->Base::TraverseElaboratedTypeLoc(TL);
}
bool DynamicASTVisitor::TraverseTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) {
  return Active->Base::TraverseTemplateSpecializationTypeLoc(TL);
}

} // namespace jacc
