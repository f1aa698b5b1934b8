float table[64];
float *p;
int n;
#pragma acc declare link(table)
#pragma acc declare copyin(p[0:n])
#pragma acc declare copy(n)
