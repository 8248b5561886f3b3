#ifndef NET_H
#define NET_H
#ifdef GPU
#define BLOCK 256
#endif
#endif
