package org.hympj.net;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The random secret of one job (32 bytes from {@link SecureRandom}): every connection between
 * ranks opens with a HELLO whose HMAC-SHA256 under this key a process outside the job cannot
 * make, so it can neither join nor send into the job. It travels to the hosts in the launch
 * agent's standard input and sits in the host's job directory (mode 0600), never in a command line.
 */
public final class JobKey {
    public static final int BYTES = 32;
    private static final String MAC = "HmacSHA256";

    private final byte[] key;

    private JobKey(byte[] key) {
        this.key = key;
    }

    /** A fresh random key. */
    public static JobKey generate() {
        byte[] k = new byte[BYTES];
        new SecureRandom().nextBytes(k);
        return new JobKey(k);
    }

    /** The key written by {@link #hex()}. */
    public static JobKey ofHex(String hex) {
        byte[] k;
        try {
            k = HexFormat.of().parseHex(hex.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("job key is not hexadecimal");
        }
        if (k.length != BYTES) {
            throw new IllegalArgumentException("job key must be " + BYTES + " bytes, was " + k.length);
        }
        return new JobKey(k);
    }

    public String hex() {
        return HexFormat.of().formatHex(key);
    }

    /** HMAC-SHA256 of {@code data} under this key (32 bytes). */
    public byte[] mac(byte[] data) {
        try {
            Mac m = Mac.getInstance(MAC);
            m.init(new SecretKeySpec(key, MAC));
            return m.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available in this JVM", e);
        }
    }

    /** True when {@code mac} is this key's MAC of {@code data} (compared in constant time). */
    public boolean verify(byte[] data, byte[] mac) {
        return MessageDigest.isEqual(mac(data), mac);
    }
}
