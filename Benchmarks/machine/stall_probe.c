/* How quiet is this machine right now? One thread per CPU spins on the clock for N seconds
 * and counts the gaps in which it did not run: time the (virtual) CPU was taken away, by
 * the host or by another task. Printed beside benchmark figures, so a tail can be read
 * against the stalls the machine itself had.
 *
 *   stall_probe SECONDS        ->  cpu0 gaps>1ms=3 longest=1.8ms lost=6.1ms; cpu1 ...
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double seconds;

struct probe { long cpu; long over_1ms; double longest, lost; };

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

static void *spin(void *arg) {
  struct probe *p = arg;
  cpu_set_t set; CPU_ZERO(&set); CPU_SET(p->cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  double start = now(), last = start;
  while (last - start < seconds) {
    double t = now(), gap = t - last;
    if (gap > 1e-4) p->lost += gap;  /* shorter gaps are the clock read itself and interrupts */
    if (gap > 1e-3) p->over_1ms++;
    if (gap > p->longest) p->longest = gap;
    last = t;
  }
  return NULL;
}

int main(int argc, char **argv) {
  seconds = argc > 1 ? atof(argv[1]) : 3;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n > 64) n = 64;
  struct probe probes[64] = {0};
  pthread_t threads[64];
  for (long i = 0; i < n; i++) { probes[i].cpu = i; pthread_create(&threads[i], NULL, spin, &probes[i]); }
  for (long i = 0; i < n; i++) pthread_join(threads[i], NULL);
  for (long i = 0; i < n; i++)
    printf("%scpu%ld gaps>1ms=%ld longest=%.1fms lost=%.1fms", i ? "; " : "", i, probes[i].over_1ms, probes[i].longest * 1e3, probes[i].lost * 1e3);
  printf(" (in %.0f s)\n", seconds);
  return 0;
}
