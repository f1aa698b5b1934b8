/* Exit calls of data regions run before every jump out of them. */
int search(int *v, int n, int key) {
  int found = -1;
  for (int r = 0; r < 3; r++) {
#pragma acc data copy(v[0:n])
    {
#pragma acc data create(v[n:1]) if(n > 8)
      for (int i = 0; i < n; i++) {
        if (v[i] == key)
          return i;
        if (v[i] < 0)
          break;
        if (v[i] == 0)
          continue;
        switch (v[i]) {
        case 7:
          break;
        default:
          goto out;
        }
      }
      if (r == 1)
        break;
      if (r == 2)
        continue;
      for (int k = 0; k < n; k++)
        if (v[k] == key)
          break;
    }
  }
out:
  return found;
}
