// expect: racy
// tile_accessor_converted_outside_templates_drf.cu without the barrier at
// the end of a tile: a fast thread loads its body of the next tile over
// the cell a slow one is still reading.
template <typename T>
struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

__device__ float3 pull(float3 acc, float4 me, float4 other) {
  float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
  float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 0.01f);
  float s = other.w * inv * inv * inv;
  acc.x += dx * s;
  acc.y += dy * s;
  acc.z += dz * s;
  return acc;
}

__device__ float3 accel_of(float4 me, const float4 *pos, int tiles) {
  float4 *tile = SharedMemory<float4>();
  float3 acc = {0.0f, 0.0f, 0.0f};
  for (int t = 0; t < tiles; t++) {
    tile[threadIdx.x] = pos[t * blockDim.x + threadIdx.x];
    __syncthreads();
    for (unsigned int j = 0; j < blockDim.x; j++)
      acc = pull(acc, me, tile[j]);
  }
  return acc;
}

__global__ void step_bodies(float4 *next, const float4 *pos, float4 *vel, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = pos[min(i, n - 1)];
  float3 a = accel_of(me, pos, gridDim.x);
  if (i < n) {
    float4 v = vel[i];
    v.x += a.x * dt;
    v.y += a.y * dt;
    v.z += a.z * dt;
    vel[i] = v;
    next[i] = make_float4(me.x + v.x * dt, me.y + v.y * dt, me.z + v.z * dt, me.w);
  }
}
