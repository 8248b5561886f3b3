// The sizes of one element, chosen by the order `p_N` and the dimension
// the build defines (`-DNDG3d`): nothing is defined without them.
#ifdef NDG3d
#define p_Nfp ((p_N + 1) * (p_N + 2) / 2)
#define p_Nfields 6
#define p_Nfaces 4
#endif
#define BSIZE (16 * ((p_Nfp * p_Nfaces + 15) / 16))
