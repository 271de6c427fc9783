package org.hympj.perf.fabric;

/** {@code hympj-bench fabric-report}: placeholder until the results exist. */
final class FabricReport {
    private FabricReport() {
    }

    static int main(String[] args) {
        System.err.println("fabric-report: not yet");
        return 1;
    }
}
