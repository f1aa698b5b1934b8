// c++
template <typename T> struct Vec {
  T *data;
  int n;
  void scale(T a) {
#pragma acc parallel loop copy(data [0:n])
    for (int i = 0; i < n; i++)
      data[i] *= a;
  }
};
template <typename T> T sum(const T *v, int n) {
  T s = 0;
#pragma acc parallel loop reduction(+ : s) copyin(v [0:n])
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}
double use(Vec<double> &v) {
  v.scale(2);
  return sum(v.data, v.n);
}
