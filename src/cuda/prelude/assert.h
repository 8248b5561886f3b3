/* drfscan built-in stub: assert() checks nothing during analysis. */
#ifndef __DRFSCAN_ASSERT_H
#define __DRFSCAN_ASSERT_H
#define assert(e) ((void)0)
#endif
