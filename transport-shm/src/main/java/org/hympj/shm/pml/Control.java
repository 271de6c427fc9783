package org.hympj.shm.pml;

/** A pooled small control packet (CTS, FIN, ACK) that did not fit in the ring at once. */
final class Control implements Outbound {
    final OutboundQueues queues;
    int channel;
    int dest;
    int type;
    int a;
    int b;
    long c;
    long d;
    long vis;
    Control nextFree;

    Control(OutboundQueues queues) {
        this.queues = queues;
    }

    @Override
    public boolean emit() {
        if (queues.writeControl(channel, dest, type, a, b, c, d, vis)) {
            queues.releaseControl(this);
            return true;
        }
        return false;
    }
}
