/*
 * HyMPJ's socket I/O straight from and into Java arrays (org.hympj.shm.fabric.NativeSockets), for the
 * bulk sockets between hosts (transport-net's NetBulk).
 *
 * Why it exists: Java writes a heap buffer to a socket through a direct buffer of its own (one copy
 * more) and HyMPJ's bulk path staged an array's bytes in its own direct buffer on each side (two
 * copies more than the kernel's two). Here the array is pinned (JNI's critical access) for one
 * non-blocking system call and the kernel copies from or into it, as from the shared segment.
 * The calls never block (MSG_DONTWAIT), so the array stays pinned only for the kernel's copy.
 */
#include <errno.h>
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

static void throw_io(JNIEnv *env, const char *what, int err) {
    jclass c = (*env)->FindClass(env, "java/io/IOException");
    if (c != NULL) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s: %s", what, strerror(err));
        (*env)->ThrowNew(env, c, msg);
    }
}

/* Bytes of a primitive array, or -1 (not a primitive array: an exception is pending). */
static jlong array_bytes(JNIEnv *env, jobject array) {
    static const char *names[] = {"[B", "[Z", "[S", "[C", "[I", "[F", "[J", "[D"};
    static const int sizes[] = {1, 1, 2, 2, 4, 4, 8, 8};
    for (int i = 0; i < 8; i++) {
        jclass c = (*env)->FindClass(env, names[i]);
        if (c == NULL) {
            return -1;
        }
        jboolean is = (*env)->IsInstanceOf(env, array, c);
        (*env)->DeleteLocalRef(env, c);
        if (is) {
            return (jlong) (*env)->GetArrayLength(env, (jarray) array) * sizes[i];
        }
    }
    jclass e = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
    if (e != NULL) {
        (*env)->ThrowNew(env, e, "not a primitive array");
    }
    return -1;
}

/* True when [offset, offset + len) lies in the array; else an exception is pending. */
static int in_bounds(JNIEnv *env, jobject array, jlong offset, jlong len) {
    jlong bytes = array_bytes(env, array);
    if (bytes < 0) {
        return 0;
    }
    if (offset < 0 || len < 0 || offset > bytes || len > bytes - offset) {
        jclass e = (*env)->FindClass(env, "java/lang/IndexOutOfBoundsException");
        if (e != NULL) {
            char msg[160];
            snprintf(msg, sizeof msg, "bytes [%lld, %lld) of an array of %lld bytes", (long long) offset,
                     (long long) (offset + len), (long long) bytes);
            (*env)->ThrowNew(env, e, msg);
        }
        return 0;
    }
    return 1;
}

/* The file descriptor of a JDK SocketChannel (its field fdVal), or -1 where it has none such. */
JNIEXPORT jint JNICALL Java_org_hympj_shm_fabric_NativeSockets_descriptor0(JNIEnv *env, jclass cls, jobject channel) {
    (void) cls;
    jclass c = (*env)->GetObjectClass(env, channel);
    jfieldID f = (*env)->GetFieldID(env, c, "fdVal", "I");
    if (f == NULL) {
        (*env)->ExceptionClear(env); /* NoSuchFieldError: another JDK's channel */
        return -1;
    }
    return (*env)->GetIntField(env, channel, f);
}

/*
 * Writes header_len bytes at header, then len bytes of the array from offset bytes after its first
 * element, in one system call; returns the bytes the socket took (0 when it takes none now).
 */
JNIEXPORT jlong JNICALL Java_org_hympj_shm_fabric_NativeSockets_write0(JNIEnv *env, jclass cls, jint fd, jlong header,
                                                                     jint header_len, jobject array, jlong offset,
                                                                     jint len) {
    (void) cls;
    if (!in_bounds(env, array, offset, len)) {
        return 0;
    }
    void *elements = (*env)->GetPrimitiveArrayCritical(env, (jarray) array, NULL);
    if (elements == NULL) {
        return 0; /* an OutOfMemoryError is pending */
    }
    struct iovec iov[2];
    int n = 0;
    if (header_len > 0) {
        iov[n].iov_base = (void *) (intptr_t) header;
        iov[n].iov_len = (size_t) header_len;
        n++;
    }
    iov[n].iov_base = (char *) elements + offset;
    iov[n].iov_len = (size_t) len;
    n++;
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = iov;
    msg.msg_iovlen = (size_t) n;
    ssize_t w;
    do {
        w = sendmsg(fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL); /* a closed peer is an error, not SIGPIPE */
    } while (w < 0 && errno == EINTR);
    int err = errno;
    (*env)->ReleasePrimitiveArrayCritical(env, (jarray) array, elements, JNI_ABORT);
    if (w < 0) {
        if (err == EAGAIN || err == EWOULDBLOCK) {
            return 0;
        }
        throw_io(env, "write", err);
        return 0;
    }
    return (jlong) w;
}

/* Reads at most len bytes into the array from offset bytes after its first element: the bytes read, 0 when none
 * is there now, -1 at the end of the stream. */
JNIEXPORT jlong JNICALL Java_org_hympj_shm_fabric_NativeSockets_read0(JNIEnv *env, jclass cls, jint fd, jobject array,
                                                                    jlong offset, jint len) {
    (void) cls;
    if (!in_bounds(env, array, offset, len)) {
        return 0;
    }
    void *elements = (*env)->GetPrimitiveArrayCritical(env, (jarray) array, NULL);
    if (elements == NULL) {
        return 0;
    }
    ssize_t r;
    do {
        r = recv(fd, (char *) elements + offset, (size_t) len, MSG_DONTWAIT);
    } while (r < 0 && errno == EINTR);
    int err = errno;
    /* mode 0: the bytes are written back where the VM gave a copy (HotSpot pins, so none is) */
    (*env)->ReleasePrimitiveArrayCritical(env, (jarray) array, elements, 0);
    if (r < 0) {
        if (err == EAGAIN || err == EWOULDBLOCK) {
            return 0;
        }
        throw_io(env, "read", err);
        return 0;
    }
    return r == 0 ? -1 : (jlong) r;
}
