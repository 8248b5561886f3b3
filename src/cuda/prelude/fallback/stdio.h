/* drfscan's fallback <stdio.h>, searched after the system's: the host side
   that CUDA programs use around their kernels (error reports to stderr,
   reading inputs), so that host code parses and its launches are seen on
   a system without a C library's headers. */
#ifndef DRFSCAN_STDIO_H
#define DRFSCAN_STDIO_H
typedef struct __drfscan_file FILE;
#define EOF (-1)
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define BUFSIZ 8192
#define FILENAME_MAX 4096
extern "C" {
int printf(const char *, ...);
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
int fprintf(FILE *, const char *, ...);
int sprintf(char *, const char *, ...);
int snprintf(char *, size_t, const char *, ...);
int vprintf(const char *, __builtin_va_list);
int vfprintf(FILE *, const char *, __builtin_va_list);
int vsnprintf(char *, size_t, const char *, __builtin_va_list);
int scanf(const char *, ...);
int fscanf(FILE *, const char *, ...);
int sscanf(const char *, const char *, ...);
int puts(const char *);
int fputs(const char *, FILE *);
int putchar(int);
int fputc(int, FILE *);
int getchar(void);
int fgetc(FILE *);
char *fgets(char *, int, FILE *);
FILE *fopen(const char *, const char *);
int fclose(FILE *);
int fflush(FILE *);
size_t fread(void *, size_t, size_t, FILE *);
size_t fwrite(const void *, size_t, size_t, FILE *);
int fseek(FILE *, long, int);
long ftell(FILE *);
void rewind(FILE *);
int feof(FILE *);
int ferror(FILE *);
void perror(const char *);
int remove(const char *);
}
#endif
