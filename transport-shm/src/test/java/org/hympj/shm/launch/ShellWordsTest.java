package org.hympj.shm.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.job.HostLayout;
import org.junit.jupiter.api.Test;

/**
 * The agent's command through a remote shell: ssh joins its command words with spaces and the
 * remote side runs the line with {@code sh -c}; each word must come out as it went in.
 */
class ShellWordsTest {
    private static final List<String> AWKWARD = List.of("java", "-cp", "/opt/my libs/a.jar:/home/o'neil/$HOME/b*.jar",
        "-Dx=a\"b;c&d|e", "", "tab\there", "org.hympj.shm.launch.HostAgent");

    @Test
    void aQuotedLineGivesTheShellBackEveryWordAsItWas() throws Exception {
        // printf prints each argument between < and >: the words the shell made of the line
        Process p = new ProcessBuilder("sh", "-c", "printf '<%s>\\n' " + ShellWords.join(AWKWARD)).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        List<String> words = new ArrayList<>();
        for (String line : out.split("\n(?=<)")) {
            words.add(line.substring(1, line.lastIndexOf('>')));
        }
        assertEquals(AWKWARD, words, out);
    }

    @Test
    void plainWordsStayUnquoted() {
        assertEquals("java -XX:+UseSerialGC -cp /a/b.jar:/c.jar org.x.Main",
            ShellWords.join(List.of("java", "-XX:+UseSerialGC", "-cp", "/a/b.jar:/c.jar", "org.x.Main")));
    }

    @Test
    void sshAndRshGetOneQuotedWordOtherAgentsSeparateWords() {
        HostLayout layout = HostLayout.blocks(List.of("node1", "node2"), new int[] {1, 1});
        LaunchSpec spec = new LaunchSpec().np(2).main("x.Main").hostfile(Path.of("hosts"));
        for (String agent : new String[] {"ssh", "/usr/bin/ssh -p 2222", "rsh"}) {
            List<String> cmd = MultiHostLauncher.agentCommand(spec.launchAgent(agent), layout, 1);
            int at = agent.split(" ").length;
            assertEquals(Arrays.asList(agent.split(" ")), cmd.subList(0, at), agent);
            assertEquals("node2", cmd.get(at), agent);
            assertEquals(at + 2, cmd.size(), "one word after the host: " + cmd);
            assertTrue(cmd.get(at + 1).startsWith("java ") && cmd.get(at + 1).endsWith(" " + HostAgent.class.getName()),
                cmd.get(at + 1));
        }
        List<String> cmd = MultiHostLauncher.agentCommand(spec.launchAgent("ip netns exec ns1"), layout, 1);
        assertEquals(List.of("ip", "netns", "exec", "ns1", "node2", "java"), cmd.subList(0, 6));
        assertEquals(HostAgent.class.getName(), cmd.get(cmd.size() - 1));
        assertFalse(ShellWords.isRemoteShell("ip"));
        assertFalse(ShellWords.isRemoteShell("/usr/bin/srun"));
    }
}
