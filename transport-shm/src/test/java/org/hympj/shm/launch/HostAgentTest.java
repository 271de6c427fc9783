package org.hympj.shm.launch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.hympj.net.JobKey;
import org.hympj.net.NetSettings;
import org.hympj.shm.ShmMpj;
import org.hympj.shm.job.HostLayout;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.job.JobDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A host agent told the job by a launcher of another library version refuses before it creates
 * anything, naming its host and both versions (the launcher's side of it is the FAIL line).
 */
class HostAgentTest {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anotherLibraryVersionIsRefusedNamingTheHostAndBothVersions() throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Launcher.javaCommand());
        cmd.addAll(Launcher.jvmFlags());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(HostAgent.class.getName());
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove(ShmMpj.ENV_JOB_DIR);
        Process p = pb.start();
        String jobId = "vtest" + System.nanoTime() % 100000;
        Properties job = new Properties();
        job.setProperty("version", "0.0.1-elsewhere");
        job.setProperty("host", "1");
        job.setProperty("config", JobConfig.defaults(jobId, 2).text());
        job.setProperty("layout", HostLayout.split(2, 2).withNet(new NetSettings(8256, 1 << 20, 1 << 20,
            10_000_000_000L)).text());
        job.setProperty("key", JobKey.generate().hex());
        job.setProperty("ranks", LaunchSpec.of(2, HostAgentTest.class).rankText());
        job.setProperty("iface", "127.0.0.1");
        job.setProperty("port", "0");
        job.setProperty("driver.idle", "backoff");
        job.setProperty("workdir", "");
        PrintStream to = new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8);
        AgentWire.send(to, AgentWire.JOB + " " + HostAgent.encode(job));
        BufferedReader from = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = from.readLine();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the agent did not exit");
        assertTrue(line != null && line.startsWith(AgentWire.FAIL + " host group-1 (")
            && line.contains("runs HyMPJ " + org.hympj.net.Version.get() + ", the launcher 0.0.1-elsewhere"), line);
        assertTrue(p.exitValue() != 0);
        assertTrue(!Files.exists(JobDirectory.root().resolve(JobDirectory.PREFIX + jobId + "-1")));
        assertTrue(Files.list(Path.of("/dev/shm")).noneMatch(d -> d.getFileName().toString().contains(jobId)));
    }
}
