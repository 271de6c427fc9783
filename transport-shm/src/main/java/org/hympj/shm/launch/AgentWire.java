package org.hympj.shm.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;

/**
 * The lines a launcher and its host agents exchange over the agent's standard input and output
 * (through ssh or any launch agent: no port of ours, and the channel is as private as the
 * agent's). One message per line, a verb then its fields separated by single spaces; the last
 * field may hold spaces (an output line of a rank).
 *
 * <pre>
 * launcher → agent                       agent → launcher
 * JOB base64(properties)                 READY endpoint          | FAIL message
 * HOSTS base64(layout with endpoints)    OUT rank line / ERR rank line
 * ABORT rank code                        EXIT rank code state    (a rank's process ended)
 * MIRROR rank state                      ABORTED rank code       (a rank of the host raised the abort flag)
 * TERM / KILL                            DONE                    (files removed, driver closed)
 * END
 * </pre>
 */
final class AgentWire {
    static final String JOB = "JOB";
    static final String HOSTS = "HOSTS";
    static final String ABORT = "ABORT";
    static final String MIRROR = "MIRROR";
    static final String TERM = "TERM";
    static final String KILL = "KILL";
    static final String END = "END";
    static final String READY = "READY";
    static final String FAIL = "FAIL";
    static final String OUT = "OUT";
    static final String ERR = "ERR";
    static final String EXIT = "EXIT";
    static final String ABORTED = "ABORTED";
    static final String DONE = "DONE";
    /** Either way, every second, on a job of hostfile hosts ({@link Heartbeat}); never queued as an event. */
    static final String ALIVE = "ALIVE";

    private AgentWire() {
    }

    /** A message's verb and fields; {@code parts} fields at most (the last keeps its spaces). */
    static String[] split(String line, int parts) {
        return line.split(" ", parts);
    }

    static String verb(String line) {
        int sp = line.indexOf(' ');
        return sp < 0 ? line : line.substring(0, sp);
    }

    /** Writes one message (whole lines: the stream's lock keeps concurrent writers apart). */
    static void send(PrintStream out, String line) {
        synchronized (out) {
            out.println(line.replace('\n', ' ').replace('\r', ' '));
            out.flush();
        }
    }

    /** The next message, or null at the end of the stream. */
    static String read(BufferedReader in) throws IOException {
        return in.readLine();
    }
}
