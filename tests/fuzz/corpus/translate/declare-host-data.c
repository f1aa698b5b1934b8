#define N 256
float table[N];
#pragma acc declare create(table)
void use(float *p);
void fill(void) {
#pragma acc parallel loop present(table)
  for (int i = 0; i < N; i++)
    table[i] = i * 0.5f;
#pragma acc host_data use_device(table)
  use(table);
#pragma acc serial
  table[0] = 1;
}
