package org.hympj.rsched;

/**
 * Put {@code putId} runs on send engine {@code engine}, into receive engine
 * {@code receiveEngine} of its destination, from {@code startNs} to {@code endNs} (modelled
 * time since the set was started; the engine is busy for the whole slot, access overhead
 * included). {@code endNs - startNs} is at least the put's {@link MachineModel#durationNs}
 * alone time and longer where it shared its link.
 */
public record Slot(int putId, int engine, int receiveEngine, double startNs, double endNs) {

    public double lengthNs() {
        return endNs - startNs;
    }
}
