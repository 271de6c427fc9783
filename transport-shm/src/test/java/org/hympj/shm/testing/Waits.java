package org.hympj.shm.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/** Bounded waits of the tests that watch processes and files from outside a job. */
public final class Waits {
    private Waits() {
    }

    /** Waits up to {@code seconds} for {@code cond}; true if it held. */
    public static boolean within(double seconds, BooleanSupplier cond) throws InterruptedException {
        long until = System.nanoTime() + (long) (seconds * 1e9);
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() - until > 0) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    public static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** The file's text, or "" while it cannot be read. */
    public static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            return "";
        }
    }
}
