/* The seed challenge's batch analyzer, rebuilt from its description for the
   `analyze` benchmark (sudokit's own code, not a copy of the original): one
   6x6 puzzle per line, row/column/box digit masks, naked singles placed as
   the most-constrained-cell scan meets them, branching on the cell with the
   fewest candidates, solutions counted to 2, OpenMP over puzzles, answers
   printed in input order with printf. The benchmark compiles it with
   `cc -O2 -march=native -fopenmp` when a C compiler with OpenMP is there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#define N 6
#define NN 36
#define ALL 63u
static unsigned char R[NN], C[NN], B[NN];
typedef struct { unsigned char row[N], col[N], box[N]; signed char val[NN]; int empty; } S;
static inline unsigned cand(const S *s, int c) { return ALL & ~(s->row[R[c]] | s->col[C[c]] | s->box[B[c]]); }
static inline void set(S *s, int c, int d) { unsigned m = 1u<<d; s->row[R[c]] |= m; s->col[C[c]] |= m; s->box[B[c]] |= m; s->val[c] = d; s->empty--; }
static int search(S *s, int limit) {
  for (;;) {
    if (!s->empty) return 1;
    int best = -1, bc = 99; int progress = 0;
    for (int c = 0; c < NN; c++) if (s->val[c] < 0) {
      unsigned m = cand(s, c); int k = __builtin_popcount(m);
      if (k == 0) return 0;
      if (k == 1) { set(s, c, __builtin_ctz(m)); progress = 1; continue; }
      if (k < bc) { bc = k; best = c; }
    }
    if (progress) continue;
    int found = 0; unsigned m = cand(s, best);
    while (m) { int d = __builtin_ctz(m); m &= m-1; S t = *s; set(&t, best, d); found += search(&t, limit - found); if (found >= limit) return found; }
    return found;
  }
}
static int analyze(const char *p, int len) {
  if (len != NN) return 3;
  S s; memset(&s, 0, sizeof s); s.empty = NN;
  for (int c = 0; c < NN; c++) {
    char ch = p[c]; s.val[c] = -1;
    if (ch >= '1' && ch <= '6') { int d = ch-'1'; if (!(cand(&s, c) >> d & 1)) return 0; set(&s, c, d); }
    else if (ch != '*' && ch != '.' && ch != '0') return 3;
  }
  return search(&s, 2);
}
int main(int argc, char **argv) {
  for (int c = 0; c < NN; c++) { R[c] = c / N; C[c] = c % N; B[c] = (c/N)/2*2 + (c%N)/3; }
  FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long sz = ftell(f); fseek(f, 0, SEEK_SET);
  char *buf = malloc(sz+1); if (fread(buf, 1, sz, f) != (size_t)sz) return 2; buf[sz] = 0; fclose(f);
  long nl = 1; for (long i = 0; i < sz; i++) nl += buf[i] == '\n';
  char **line = malloc(sizeof(char*)*nl); int *len = malloc(sizeof(int)*nl);
  long n = 0; char *p = buf, *end = buf + sz;
  while (p < end) { char *q = memchr(p, '\n', end - p); if (!q) q = end; int l = q - p; if (l && p[l-1]=='\r') l--; line[n] = p; len[n] = l; n++; p = q + 1; }
  unsigned char *res = malloc(n);
  #pragma omp parallel for schedule(dynamic, 1024)
  for (long i = 0; i < n; i++) res[i] = analyze(line[i], len[i]);
  static const char *msg[] = {"has no solution", "has a unique solution", "has multiple solutions", "is invalid"};
  static char obuf[1<<20]; setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
  for (long i = 0; i < n; i++) fprintf(stdout, "Puzzle # %ld %s\n", i+1, msg[res[i]]);
  return 0;
}
