#include "header_pragma.h"
#define ACC_UPDATE(x) _Pragma("acc update self(x[0:4])")
void f(float *a) {
  ACC_UPDATE(a)
}
