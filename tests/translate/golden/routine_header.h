/* A header's directives: a routine another file defines, a routine of its own with a loop, and a
   global mapped for the whole program. */
#pragma acc routine seq
float blend(float a, float b);

#pragma acc routine seq
static inline float twice(float x) {
  float r = 0;
#pragma acc loop seq
  for (int k = 0; k < 2; k++)
    r += x;
  return r;
}

extern float bias;
#pragma acc declare copyin(bias)
