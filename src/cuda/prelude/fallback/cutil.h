/* drfscan's fallback <cutil.h> (and <cutil_inline.h>), searched after
   every other include directory: the utility library of the CUDA SDK's
   2.x and 3.x samples, which later toolkits no longer ship and on which
   benchmark suites of that era still build. Its checking macros run their
   call; `CUT_BANK_CHECKER(a, i)` is `a[i]`, as in a release build; its
   host functions are declarations only. */
#ifndef DRFSCAN_CUTIL_H
#define DRFSCAN_CUTIL_H
enum CUTBoolean { CUTFalse = 0, CUTTrue = 1 };
#define CUT_BANK_CHECKER(array, index) array[index]
#define CUDA_SAFE_CALL(call) call
#define CUDA_SAFE_CALL_NO_SYNC(call) call
#define CUFFT_SAFE_CALL(call) call
#define CUT_SAFE_CALL(call) call
#define CUT_SAFE_MALLOC(call) call
#define CUT_CONDITION(val) ((void)(val))
#define CUT_CHECK_ERROR(msg) ((void)0)
#define CUT_CHECK_ERROR_GL() ((void)0)
#define CUT_DEVICE_INIT(...) ((void)0)
#define CUT_EXIT(...) ((void)0)
#define cutilSafeCall(call) call
#define cutilSafeCallNoSync(call) call
#define cutilSafeThreadSync() cudaDeviceSynchronize()
#define cutilCheckError(call) call
#define cutilCheckMsg(msg) ((void)0)
#define cutilSafeMalloc(call) call
#define cutilCondition(val) ((void)(val))
#define cutilDeviceInit(...) ((void)0)
#define cutilExit(...) ((void)0)
#define cutilDeviceSynchronize() cudaDeviceSynchronize()
extern "C" {
CUTBoolean cutCheckCmdLineFlag(const int argc, const char **argv, const char *flag_name);
CUTBoolean cutGetCmdLineArgumenti(const int argc, const char **argv, const char *arg_name, int *val);
CUTBoolean cutGetCmdLineArgumentf(const int argc, const char **argv, const char *arg_name, float *val);
CUTBoolean cutGetCmdLineArgumentstr(const int argc, const char **argv, const char *arg_name, char **val);
CUTBoolean cutCreateTimer(unsigned int *name);
CUTBoolean cutDeleteTimer(unsigned int name);
CUTBoolean cutStartTimer(const unsigned int name);
CUTBoolean cutStopTimer(const unsigned int name);
CUTBoolean cutResetTimer(const unsigned int name);
float cutGetTimerValue(const unsigned int name);
float cutGetAverageTimerValue(const unsigned int name);
char *cutFindFilePath(const char *filename, const char *executable_path);
CUTBoolean cutReadFilef(const char *filename, float **data, unsigned int *len, bool verbose = false);
CUTBoolean cutReadFilei(const char *filename, int **data, unsigned int *len, bool verbose = false);
CUTBoolean cutWriteFilef(const char *filename, const float *data, unsigned int len, const float epsilon,
                         bool verbose = false);
CUTBoolean cutComparef(const float *reference, const float *data, const unsigned int len);
CUTBoolean cutComparei(const int *reference, const int *data, const unsigned int len);
CUTBoolean cutCompareub(const unsigned char *reference, const unsigned char *data, const unsigned int len);
CUTBoolean cutCompareube(const unsigned char *reference, const unsigned char *data, const unsigned int len,
                         const float epsilon);
CUTBoolean cutComparefe(const float *reference, const float *data, const unsigned int len, const float epsilon);
CUTBoolean cutCompareL2fe(const float *reference, const float *data, const unsigned int len, const float epsilon);
CUTBoolean cutLoadPGMub(const char *file, unsigned char **data, unsigned int *w, unsigned int *h);
CUTBoolean cutSavePGMub(const char *file, unsigned char *data, unsigned int w, unsigned int h);
CUTBoolean cutLoadPPM4ub(const char *file, unsigned char **data, unsigned int *w, unsigned int *h);
CUTBoolean cutSavePPM4ub(const char *file, unsigned char *data, unsigned int w, unsigned int h);
void cutFree(void *ptr);
int cutGetMaxGflopsDeviceId();
int cutilGetMaxGflopsDeviceId();
}
#endif
