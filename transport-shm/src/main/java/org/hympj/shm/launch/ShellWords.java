package org.hympj.shm.launch;

import java.nio.file.Path;
import java.util.List;

/**
 * Words for a POSIX shell on the other end of a remote-shell launch agent (ssh, rsh), which runs
 * its command through {@code $SHELL -c} with the arguments joined by spaces.
 */
final class ShellWords {
    private ShellWords() {
    }

    /** True if {@code program} (a path or a name) is ssh or rsh, or a site's copy named like them. */
    static boolean isRemoteShell(String program) {
        Path name = Path.of(program).getFileName();
        String n = name == null ? program : name.toString();
        return n.endsWith("ssh") || n.endsWith("rsh");
    }

    /** The words as one command line in which each word stays one word, as it is. */
    static String join(List<String> words) {
        StringBuilder b = new StringBuilder();
        for (String w : words) {
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(quote(w));
        }
        return b.toString();
    }

    /** {@code w} for the shell: as it is when it has nothing the shell would read, else in single quotes. */
    static String quote(String w) {
        if (!w.isEmpty() && w.chars().allMatch(ShellWords::plain)) {
            return w;
        }
        // inside single quotes only ' itself is special: close, an escaped quote, reopen
        return "'" + w.replace("'", "'\\''") + "'";
    }

    private static boolean plain(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || "-_./:=+,@%".indexOf(c) >= 0;
    }
}
