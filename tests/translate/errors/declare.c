float table[64];
#pragma acc declare create(table)
