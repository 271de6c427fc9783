/*
 * HyMPJ's native copy into shared memory (org.hympj.shm.fabric.NativeCopy).
 *
 * Why it exists: a sender's plain stores into a line the receiver's core last read must first take
 * the line back from that core's cache (a read for ownership). Where the two cores sit in different
 * core complexes, each such line costs a round trip between them, and only a few dozen are in flight:
 * HotSpot's copy stub wrote 1 MiB into the bulk region in 115-165 us against 20 us when the cores share
 * a cache. The x86 string move (`rep movsb` on a CPU with ERMS/FSRM) writes whole lines without reading
 * them first: 26-32 us in both cases (docs/PERFORMANCE.md, session 22). Java 17 has no way to emit it
 * (nor non-temporal stores), hence this file.
 */
#include <jni.h>
#include <stdint.h>
#include <string.h>

static inline void copy_bytes(void *dst, const void *src, size_t len) {
#if defined(__x86_64__)
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(len) : : "memory");
#else
    memcpy(dst, src, len);
#endif
}

/* len bytes from a primitive array, starting offset bytes after its first element, to address dst. */
JNIEXPORT void JNICALL Java_org_hympj_shm_fabric_NativeCopy_fromArray(JNIEnv *env, jclass cls, jobject array,
                                                                       jlong offset, jlong dst, jlong len) {
    (void) cls;
    void *elements = (*env)->GetPrimitiveArrayCritical(env, (jarray) array, NULL);
    if (elements == NULL) {
        return; /* an OutOfMemoryError is pending */
    }
    copy_bytes((void *) (intptr_t) dst, (const char *) elements + offset, (size_t) len);
    (*env)->ReleasePrimitiveArrayCritical(env, (jarray) array, elements, JNI_ABORT);
}

/* len bytes from address src to address dst (off-heap memory on both sides). */
JNIEXPORT void JNICALL Java_org_hympj_shm_fabric_NativeCopy_between(JNIEnv *env, jclass cls, jlong src, jlong dst,
                                                                     jlong len) {
    (void) env;
    (void) cls;
    copy_bytes((void *) (intptr_t) dst, (const void *) (intptr_t) src, (size_t) len);
}
