#pragma acc routine seq
static float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

void clip(int n, float *v) {
#pragma acc parallel loop gang vector_length(128) copy(v[0:n])
  for (int i = 0; i < n; i++) {
    float t = v[i];
#pragma acc atomic update
    v[0] += 0;
    v[i] = clampf(t, -1.0f, 1.0f);
  }
}
