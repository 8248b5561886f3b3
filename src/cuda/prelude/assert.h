/* drfscan built-in stub: assert() checks nothing during analysis. The
   condition stays in the syntax tree, unevaluated, for what host code
   asserts of a launch's arguments. */
#ifndef __DRFSCAN_ASSERT_H
#define __DRFSCAN_ASSERT_H
#define assert(e) ((void)sizeof((e) ? 1 : 0))
#endif
