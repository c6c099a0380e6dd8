/* What the emitted structs need from the kernel, as x86-64 with CONFIG_SMP and L1_CACHE_SHIFT 6
 * defines it: include/linux/cache.h (____cacheline_aligned_in_smp; CACHELINE_PADDING() since
 * v6.1; __cacheline_group_begin/end() since v6.8), include/linux/types.h (atomic64_t) and
 * include/linux/atomic/atomic-long.h (atomic_long_t is atomic64_t on 64-bit). */
#include <stdbool.h>
#include <stddef.h>

typedef unsigned char __u8;
typedef struct {
    long counter;
} atomic64_t;
typedef atomic64_t atomic_long_t;

#define L1_CACHE_SHIFT 6
#define L1_CACHE_BYTES (1 << L1_CACHE_SHIFT)
#define SMP_CACHE_BYTES L1_CACHE_BYTES
#define INTERNODE_CACHE_SHIFT L1_CACHE_SHIFT

#define ____cacheline_aligned __attribute__((__aligned__(SMP_CACHE_BYTES)))
#define ____cacheline_aligned_in_smp ____cacheline_aligned
#define ____cacheline_internodealigned_in_smp                                                      \
    __attribute__((__aligned__(1 << (INTERNODE_CACHE_SHIFT))))

struct cacheline_padding {
    char x[0];
} ____cacheline_internodealigned_in_smp;
#define CACHELINE_PADDING(name) struct cacheline_padding name

#define __cacheline_group_begin(GROUP) __u8 __cacheline_group_begin__##GROUP[0]
#define __cacheline_group_end(GROUP) __u8 __cacheline_group_end__##GROUP[0]
