/* akc-json-scan.c: the JSON string scanner, a vector at a time
 *
 * SPDX-License-Identifier: MIT
 *
 * See akc-json-scan-private.h. Every implementation returns the index of
 * the first byte that is not plain (a quote, a backslash, < 0x20 or
 * >= 0x80), or n, and has copied at least that many bytes to dst. The
 * vector ones test whole blocks; the last, partial block is tested again
 * as the block that ends at n (it overlaps bytes already known to be
 * plain, so the first hit in it is still the first in the run).
 */

#include "config.h"

#include <string.h>

#include "akc-json-scan-private.h"

#if defined(__x86_64__) || defined(_M_X64)
# define HAVE_SSE2_SCAN 1
# include <emmintrin.h>
# if defined(__GNUC__) || defined(__clang__)
#  define HAVE_AVX2_SCAN 1
#  include <immintrin.h>
# endif
#endif

#if defined(__aarch64__) && defined(__ARM_NEON)
# define HAVE_NEON_SCAN 1
# include <arm_neon.h>
#endif

/* 1 for the plain bytes: 0x20–0x7F except '"' and '\\'. */
static const guint8 plain[256] = {
#define R16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
  R16 (0), R16 (0),                                     /* 0x00–0x1F */
  1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,       /* 0x20–0x2F: '"' */
  R16 (1), R16 (1),                                     /* 0x30–0x4F */
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,       /* 0x50–0x5F: '\\' */
  R16 (1), R16 (1),                                     /* 0x60–0x7F */
  R16 (0), R16 (0), R16 (0), R16 (0),                   /* 0x80–0xFF */
  R16 (0), R16 (0), R16 (0), R16 (0),
#undef R16
};

static inline gsize
scan_bytes (const guint8 *src,
            gsize         i,
            gsize         n,
            guint8       *dst)
{
  while (i < n && plain[src[i]])
    {
      dst[i] = src[i];
      i++;
    }
  return i;
}

/* ------------------------------------------------------------------ */
/* Portable: eight bytes in a 64-bit word                              */
/* ------------------------------------------------------------------ */

#define ONES G_GUINT64_CONSTANT (0x0101010101010101)
#define HIGHS (ONES * 0x80)

/* The high bit of each byte of the result is set for a byte of @w that is
 * not plain, and may be set for bytes above the lowest such byte (a borrow
 * crosses into the next byte only from one that is not plain), so a word
 * is plain exactly when the result is 0. */
static inline guint64
not_plain_word (guint64 w)
{
  guint64 quote = w ^ (ONES * '"');
  guint64 backslash = w ^ (ONES * '\\');

  return ((((w - ONES * 0x20) | (quote - ONES) | (backslash - ONES)) & ~w) | w) & HIGHS;
}

static gsize
scan_portable (const guint8 *src,
               gsize         n,
               guint8       *dst)
{
  gsize i = 0;

  for (; i + 8 <= n; i += 8)
    {
      guint64 w;

      memcpy (&w, src + i, 8);
      memcpy (dst + i, &w, 8);
      if (not_plain_word (w) != 0)
        return scan_bytes (src, i, i + 8, dst);
    }

  return scan_bytes (src, i, n, dst);
}

/* ------------------------------------------------------------------ */
/* SSE2 (x86-64 baseline): 16 bytes a block                            */
/* ------------------------------------------------------------------ */

#ifdef HAVE_SSE2_SCAN
/* Bytes a round of the long loop: 64 blocks. */
#define SSE2_ROUND 1024

static inline __m128i
sse2_not_plain (__m128i x)
{
  /* Signed: x < 0x20 holds for the control bytes and for 0x80–0xFF. */
  __m128i low = _mm_cmplt_epi8 (x, _mm_set1_epi8 (0x20));
  __m128i quote = _mm_cmpeq_epi8 (x, _mm_set1_epi8 ('"'));
  __m128i backslash = _mm_cmpeq_epi8 (x, _mm_set1_epi8 ('\\'));

  return _mm_or_si128 (low, _mm_or_si128 (quote, backslash));
}

/* Copies the 64 bytes at @i; TRUE when one of them is not plain. */
static inline gboolean
sse2_block64 (const guint8 *src,
              gsize         i,
              guint8       *dst)
{
  __m128i a = _mm_loadu_si128 ((const __m128i *) (src + i));
  __m128i b = _mm_loadu_si128 ((const __m128i *) (src + i + 16));
  __m128i c = _mm_loadu_si128 ((const __m128i *) (src + i + 32));
  __m128i d = _mm_loadu_si128 ((const __m128i *) (src + i + 48));
  __m128i any = _mm_or_si128 (_mm_or_si128 (sse2_not_plain (a), sse2_not_plain (b)),
                              _mm_or_si128 (sse2_not_plain (c), sse2_not_plain (d)));

  _mm_storeu_si128 ((__m128i *) (dst + i), a);
  _mm_storeu_si128 ((__m128i *) (dst + i + 16), b);
  _mm_storeu_si128 ((__m128i *) (dst + i + 32), c);
  _mm_storeu_si128 ((__m128i *) (dst + i + 48), d);

  return _mm_movemask_epi8 (any) != 0;
}

static gsize
scan_sse2 (const guint8 *src,
           gsize         n,
           guint8       *dst)
{
  gsize i = 0;
  __m128i x;
  int mask;

  if (n < 16)
    return scan_bytes (src, 0, n, dst);

  /* Most runs are short: one block first. */
  x = _mm_loadu_si128 ((const __m128i *) src);
  _mm_storeu_si128 ((__m128i *) dst, x);
  mask = _mm_movemask_epi8 (sse2_not_plain (x));
  if (mask != 0)
    return (gsize) __builtin_ctz ((unsigned) mask);
  i = 16;

  /* A run that goes on past a few more blocks is likely long: 64 bytes at
   * a time first, so that a short one is not tested as a round and then
   * scanned again. */
  for (; i < 16 + 3 * 64 && i + 64 <= n; i += 64)
    if (sse2_block64 (src, i, dst))
      goto rest;

  /* SSE2_ROUND bytes a round, seven instructions a block besides its load
   * and store, and one test a round: quotes and backslashes are OR-ed into
   * one vector (a copy of a constant for one compare, as SSE2 compares
   * overwrite their operand), the unsigned minimum stays above 0x1F only
   * while no byte is a control one, and the OR of the bytes has its high
   * bit clear only while none is non-ASCII. Nine instructions for 16
   * bytes is as far as SSE2 goes with the copy (1.78 bytes an
   * instruction; AVX2 takes six for 32 bytes): long rounds keep the test
   * and the loop's own instructions small beside them. A round with a hit
   * is scanned again 64 bytes at a time below (its bytes are copied
   * already; copying them again is harmless). */
  if (i + SSE2_ROUND <= n)
    {
      const __m128i quote = _mm_set1_epi8 ('"');
      const __m128i backslash = _mm_set1_epi8 ('\\');
      const __m128i x1f = _mm_set1_epi8 (0x1F);

      for (; i + SSE2_ROUND <= n; i += SSE2_ROUND)
        {
          __m128i special = _mm_setzero_si128 ();
          __m128i low = _mm_set1_epi8 ((char) 0xFF);
          __m128i high = _mm_setzero_si128 ();
          __m128i bad;

#pragma GCC unroll 64
          for (guint k = 0; k < SSE2_ROUND / 16; k++)
            {
              __m128i v = _mm_loadu_si128 ((const __m128i *) (src + i + 16 * k));

              _mm_storeu_si128 ((__m128i *) (dst + i + 16 * k), v);
              low = _mm_min_epu8 (low, v);
              high = _mm_or_si128 (high, v);
              special = _mm_or_si128 (special, _mm_or_si128 (_mm_cmpeq_epi8 (v, quote),
                                                             _mm_cmpeq_epi8 (v, backslash)));
              /* One block after the other, as in scan_avx2(). */
              __asm__ ("" : "+x" (special), "+x" (low), "+x" (high));
            }
          /* low <= 0x1F exactly when min (low, 0x1F) == low. */
          bad = _mm_or_si128 (_mm_or_si128 (special, high),
                              _mm_cmpeq_epi8 (_mm_min_epu8 (low, x1f), low));
          if (_mm_movemask_epi8 (bad) != 0)
            break;
        }
    }

  /* The rest of a run, or a round with a hit: 64 bytes at a time. */
  for (; i + 64 <= n; i += 64)
    if (sse2_block64 (src, i, dst))
      break;

rest:
  for (; i + 16 <= n; i += 16)
    {
      x = _mm_loadu_si128 ((const __m128i *) (src + i));
      _mm_storeu_si128 ((__m128i *) (dst + i), x);
      mask = _mm_movemask_epi8 (sse2_not_plain (x));
      if (mask != 0)
        return i + (gsize) __builtin_ctz ((unsigned) mask);
    }

  if (i == n)
    return n;

  i = n - 16;
  x = _mm_loadu_si128 ((const __m128i *) (src + i));
  _mm_storeu_si128 ((__m128i *) (dst + i), x);
  mask = _mm_movemask_epi8 (sse2_not_plain (x));

  return mask != 0 ? i + (gsize) __builtin_ctz ((unsigned) mask) : n;
}
#endif

/* ------------------------------------------------------------------ */
/* AVX2 (x86-64 processors that have it): 32 bytes a block             */
/* ------------------------------------------------------------------ */

#ifdef HAVE_AVX2_SCAN
/* The plain bytes of a block, as 0xFF bytes. A byte below 0x80 is a quote
 * or a backslash exactly when it equals the table entry for its low
 * nibble (the other entries are below 0x20, so never plain), and a byte
 * from 0x80 up shuffles to 0, which equals no byte from 0x80 up; the
 * signed comparison then drops the control and non-ASCII bytes. Written
 * as "greater than 0x1F and not special" (one instruction each), which
 * compilers keep as it is. */
#define AVX2_TABLE _mm256_setr_epi8 (0, 1, '"', 3, 4, 5, 6, 7, 8, 9, 10, 11, '\\', 13, 14, 15, \
                                     0, 1, '"', 3, 4, 5, 6, 7, 8, 9, 10, 11, '\\', 13, 14, 15)

__attribute__ ((target ("avx2")))
static inline __m256i
avx2_plain (__m256i x,
            __m256i table,
            __m256i x1f)
{
  __m256i special = _mm256_cmpeq_epi8 (_mm256_shuffle_epi8 (table, x), x);

  return _mm256_andnot_si256 (special, _mm256_cmpgt_epi8 (x, x1f));
}

__attribute__ ((target ("avx2")))
static inline gsize
avx2_block (const guint8 *src,
            gsize         i,
            guint8       *dst,
            __m256i       table,
            __m256i       x1f)
{
  __m256i x = _mm256_loadu_si256 ((const __m256i *) (src + i));
  unsigned not_plain;

  _mm256_storeu_si256 ((__m256i *) (dst + i), x);
  not_plain = ~(unsigned) _mm256_movemask_epi8 (avx2_plain (x, table, x1f));

  return not_plain != 0 ? i + (gsize) __builtin_ctz (not_plain) : G_MAXSIZE;
}

__attribute__ ((target ("avx2")))
static gsize
scan_avx2 (const guint8 *src,
           gsize         n,
           guint8       *dst)
{
  const __m256i table = AVX2_TABLE;
  const __m256i x1f = _mm256_set1_epi8 (0x1F);
  const __m256i ones = _mm256_set1_epi8 ((char) 0xFF);
  gsize i = 0, hit;

  if (n < 32)
    return scan_sse2 (src, n, dst);

  /* Most runs are short: one block first. */
  hit = avx2_block (src, 0, dst, table, x1f);
  if (hit != G_MAXSIZE)
    return hit;
  i = 32;

  /* A few more blocks one at a time before the rounds, as in scan_sse2(). */
  for (; i < 32 + 6 * 32 && i + 32 <= n; i += 32)
    {
      hit = avx2_block (src, i, dst, table, x1f);
      if (hit != G_MAXSIZE)
        return hit;
    }

  /* 512 bytes a round, four instructions a block besides its load and
   * store: the shuffle and compare for quotes and backslashes, OR-ed into
   * one vector, and a signed minimum, which stays above 0x1F only while
   * no byte is a control or non-ASCII one. */
  for (; i + 512 <= n; i += 512)
    {
      __m256i special = _mm256_setzero_si256 ();
      __m256i low = _mm256_set1_epi8 (0x7F);

#pragma GCC unroll 16
      for (guint k = 0; k < 16; k++)
        {
          __m256i v = _mm256_loadu_si256 ((const __m256i *) (src + i + 32 * k));

          _mm256_storeu_si256 ((__m256i *) (dst + i + 32 * k), v);
          special = _mm256_or_si256 (special, _mm256_cmpeq_epi8 (_mm256_shuffle_epi8 (table, v), v));
          low = _mm256_min_epi8 (low, v);
          /* One block after the other: left to itself, the compiler
           * hoists the shuffles of all sixteen and spills them. */
          __asm__ ("" : "+x" (special), "+x" (low));
        }
      if (!_mm256_testc_si256 (_mm256_andnot_si256 (special, _mm256_cmpgt_epi8 (low, x1f)), ones))
        break;
    }

  for (; i + 32 <= n; i += 32)
    {
      hit = avx2_block (src, i, dst, table, x1f);
      if (hit != G_MAXSIZE)
        return hit;
    }

  if (i == n)
    return n;

  hit = avx2_block (src, n - 32, dst, table, x1f);
  return hit != G_MAXSIZE ? hit : n;
}
#endif

/* ------------------------------------------------------------------ */
/* NEON (aarch64): 16 bytes a block                                    */
/* ------------------------------------------------------------------ */

#ifdef HAVE_NEON_SCAN
static inline uint8x16_t
neon_not_plain (uint8x16_t x)
{
  /* Signed: x < 0x20 holds for the control bytes and for 0x80–0xFF. */
  uint8x16_t low = vcltq_s8 (vreinterpretq_s8_u8 (x), vdupq_n_s8 (0x20));
  uint8x16_t quote = vceqq_u8 (x, vdupq_n_u8 ('"'));
  uint8x16_t backslash = vceqq_u8 (x, vdupq_n_u8 ('\\'));

  return vorrq_u8 (low, vorrq_u8 (quote, backslash));
}

/* Index of the first 0xFF byte of a comparison result that has one: four
 * bits a byte after a narrowing shift. */
static inline gsize
neon_first (uint8x16_t hits)
{
  uint64_t bits = vget_lane_u64 (vreinterpret_u64_u8 (vshrn_n_u16 (vreinterpretq_u16_u8 (hits), 4)), 0);

  return (gsize) __builtin_ctzll (bits) >> 2;
}

static gsize
scan_neon (const guint8 *src,
           gsize         n,
           guint8       *dst)
{
  gsize i = 0;
  uint8x16_t x, hits;

  if (n < 16)
    return scan_bytes (src, 0, n, dst);

  /* Most runs are short: one block first. */
  x = vld1q_u8 (src);
  vst1q_u8 (dst, x);
  hits = neon_not_plain (x);
  if (vmaxvq_u8 (hits) != 0)
    return neon_first (hits);
  i = 16;

  for (; i + 64 <= n; i += 64)
    {
      uint8x16_t a = vld1q_u8 (src + i);
      uint8x16_t b = vld1q_u8 (src + i + 16);
      uint8x16_t c = vld1q_u8 (src + i + 32);
      uint8x16_t d = vld1q_u8 (src + i + 48);
      uint8x16_t any = vorrq_u8 (vorrq_u8 (neon_not_plain (a), neon_not_plain (b)),
                                 vorrq_u8 (neon_not_plain (c), neon_not_plain (d)));

      vst1q_u8 (dst + i, a);
      vst1q_u8 (dst + i + 16, b);
      vst1q_u8 (dst + i + 32, c);
      vst1q_u8 (dst + i + 48, d);
      if (vmaxvq_u8 (any) != 0)
        break;
    }

  for (; i + 16 <= n; i += 16)
    {
      x = vld1q_u8 (src + i);
      vst1q_u8 (dst + i, x);
      hits = neon_not_plain (x);
      if (vmaxvq_u8 (hits) != 0)
        return i + neon_first (hits);
    }

  if (i == n)
    return n;

  i = n - 16;
  x = vld1q_u8 (src + i);
  vst1q_u8 (dst + i, x);
  hits = neon_not_plain (x);

  return vmaxvq_u8 (hits) != 0 ? i + neon_first (hits) : n;
}
#endif

/* ------------------------------------------------------------------ */
/* Selection                                                           */
/* ------------------------------------------------------------------ */

typedef struct {
  const char      *name;
  AkcJsonScanFunc  func;
} Implementation;

static const Implementation implementations[] = {
#ifdef HAVE_AVX2_SCAN
  { "avx2", scan_avx2 },
#endif
#ifdef HAVE_SSE2_SCAN
  { "sse2", scan_sse2 },
#endif
#ifdef HAVE_NEON_SCAN
  { "neon", scan_neon },
#endif
  { "portable", scan_portable },
};

static const char * const implementation_names[] = {
#ifdef HAVE_AVX2_SCAN
  "avx2",
#endif
#ifdef HAVE_SSE2_SCAN
  "sse2",
#endif
#ifdef HAVE_NEON_SCAN
  "neon",
#endif
  "portable",
  NULL
};

static gboolean
usable (const Implementation *impl)
{
#ifdef HAVE_AVX2_SCAN
  if (impl->func == scan_avx2)
    return __builtin_cpu_supports ("avx2");
#else
  (void) impl;
#endif
  return TRUE;
}

/* The implementation in use: scan_first() until the first call chose
 * one (the first usable in order of preference; racing threads choose the
 * same). */
static gsize scan_first (const guint8 *src,
                         gsize         n,
                         guint8       *dst);

static AkcJsonScanFunc scan_func = scan_first;
static const char *scan_name;

static const Implementation *
preferred (void)
{
  gsize i = 0;

  while (!usable (&implementations[i]))
    i++;
  return &implementations[i];
}

static gsize
scan_first (const guint8 *src,
            gsize         n,
            guint8       *dst)
{
  const Implementation *impl = preferred ();

  g_atomic_pointer_set (&scan_name, impl->name);
  g_atomic_pointer_set (&scan_func, impl->func);

  return impl->func (src, n, dst);
}

gsize
akc_json_scan_plain (const guint8 *src,
                     gsize         n,
                     guint8       *dst)
{
  /* A plain load on the processors we build for; the value only ever
   * changes from scan_first() to a real implementation. */
  AkcJsonScanFunc func = g_atomic_pointer_get (&scan_func);

  return func (src, n, dst);
}

AkcJsonScanFunc
akc_json_scan_lookup (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (implementations); i++)
    if (g_str_equal (implementations[i].name, name))
      return usable (&implementations[i]) ? implementations[i].func : NULL;

  return NULL;
}

const char * const *
akc_json_scan_list (void)
{
  return implementation_names;
}

const char *
akc_json_scan_get_implementation (void)
{
  const char *name = g_atomic_pointer_get (&scan_name);

  return name != NULL ? name : preferred ()->name;
}

gboolean
akc_json_scan_set_implementation (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (implementations); i++)
    if (g_str_equal (implementations[i].name, name))
      {
        if (!usable (&implementations[i]))
          return FALSE;
        g_atomic_pointer_set (&scan_name, implementations[i].name);
        g_atomic_pointer_set (&scan_func, implementations[i].func);
        return TRUE;
      }

  return FALSE;
}
