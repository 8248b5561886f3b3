// expect: drf
// Attention's permute: one thread per output element splits its linear
// index into (batch, head, token, channel) with runtime sizes and gathers
// from the packed QKV tensor. Writes are at the thread's own index.
__global__ void permute_qkv(float *q, float *k, float *v, const float *inp,
                            int B, int N, int NH, int d) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * N * d) {
    int b = idx / (NH * N * d);
    int rest = idx % (NH * N * d);
    int nh = rest / (N * d);
    rest = rest % (N * d);
    int n = rest / d;
    int c = rest % d;
    int src = b * N * 3 * NH * d + n * 3 * NH * d + nh * d + c;
    q[idx] = inp[src];
    k[idx] = inp[src + NH * d];
    v[idx] = inp[src + 2 * NH * d];
  }
}
