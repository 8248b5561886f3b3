// expect: racy
// device_launch_one_thread_drf.cu with its recursive launches two threads
// wide: both threads of a child grid swap the same keys.
#define SORTERS 2
#define CUTOFF 32

__global__ void sort_range(int *keys, int left, int right, int depth) {
  if (depth >= 16 || right - left <= CUTOFF) {
    for (int i = left; i <= right; ++i) {
      int least = i;
      for (int j = i + 1; j <= right; ++j)
        if (keys[j] < keys[least])
          least = j;
      int t = keys[i];
      keys[i] = keys[least];
      keys[least] = t;
    }
    return;
  }
  int mid = left + (right - left) / 2;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  sort_range<<<1, SORTERS, 0, s>>>(keys, left, mid, depth + 1);
  sort_range<<<1, SORTERS, 0, s>>>(keys, mid + 1, right, depth + 1);
  cudaStreamDestroy(s);
}

void sort(int *keys, int n) { sort_range<<<1, 1>>>(keys, 0, n - 1, 0); }
