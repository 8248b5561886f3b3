/* drfscan built-in stub of the warp matrix header: half precision only;
   the `wmma` fragments are not declared, so kernels using them do not
   compile, and the file's other kernels do. */
#ifndef __DRFSCAN_MMA_H
#define __DRFSCAN_MMA_H
#include <cuda_fp16.h>
#endif
