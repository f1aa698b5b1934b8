#pragma acc parallel loop
for (int i = 0; i < n; i++) {
  float t = x[i];
  if (t > a) t = a;
#pragma acc atomic update
  s += t;
}
