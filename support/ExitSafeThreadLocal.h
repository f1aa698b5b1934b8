// A thread's own object that reads as absent once the thread's exit destroyed it.
// At exit() the calling thread's thread_local objects are destroyed before the atexit handlers
// and the static destructors run, and those may still call jacc (an application's atexit
// finalize, a static object's destructor freeing device memory): touching a destroyed
// thread_local there is undefined, so every such object is reached through get(), null from
// then on.
#ifndef JACC_SUPPORT_EXITSAFETHREADLOCAL_H
#define JACC_SUPPORT_EXITSAFETHREADLOCAL_H

namespace jacc {

/// One T per thread, constructed on the thread's first get(). Tag tells apart two objects of
/// the same type (`ExitSafeThreadLocal<std::string, struct LastErrorTag>`).
template <typename T, typename Tag = T> class ExitSafeThreadLocal {
public:
  /// This thread's object, or null once it was destroyed.
  static T *get() { return Gone ? nullptr : &Value.Object; }

private:
  struct Holder {
    T Object{};
    ~Holder() { Gone = true; }
  };
  // Gone is constant-initialized, so reading it never constructs Value.
  static thread_local bool Gone;
  static thread_local Holder Value;
};

template <typename T, typename Tag> thread_local bool ExitSafeThreadLocal<T, Tag>::Gone = false;
template <typename T, typename Tag>
thread_local typename ExitSafeThreadLocal<T, Tag>::Holder ExitSafeThreadLocal<T, Tag>::Value;

} // namespace jacc

#endif
