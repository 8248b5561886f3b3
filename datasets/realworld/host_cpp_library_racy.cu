// expect: racy
// Host code built on the C++ standard library (strings, vectors, streams,
// stdio) around a kernel that calls math through namespace std. The tile
// has 128 cells, but main launches blocks of 256: threads t and t + 128
// write one cell.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

__global__ void mirror_norms(const float *v, float *out, int n) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x % 128] = std::sqrt(std::fabs(v[i])) + std::pow(v[i], 2);
  __syncthreads();
  out[i] = std::max(tile[127 - threadIdx.x % 128], 0.0f);
}

int main(int argc, char **argv) {
  std::vector<float> host(1 << 20, 1.0f);
  std::string path = argc > 1 ? argv[1] : "norms.txt";
  FILE *log = fopen(path.c_str(), "w");
  if (!log) {
    std::cerr << "cannot open " << path << std::endl;
    return 1;
  }
  float *v, *out;
  cudaMalloc(&v, host.size() * sizeof(float));
  cudaMalloc(&out, host.size() * sizeof(float));
  cudaMemcpy(v, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  mirror_norms<<<host.size() / 256, 256>>>(v, out, (int)host.size());
  fprintf(log, "%zu norms\n", host.size());
  fclose(log);
  return 0;
}
