// A library named as one of NVIDIA's CUDA libraries (libcublas-...), loaded by the CUDA mock
// tests to stand for a vendor library in the process: it computes nothing.
extern "C" int jacc_test_fake_cuda_library() {
  return 1;
}
