package org.hympj.shm.pml;

/** A pooled small control packet (CTS, FIN, ACK) that did not fit in the ring at once. */
final class Control implements Outbound {
    final Engine engine;
    int channel;
    int dest;
    int type;
    int a;
    int b;
    long c;
    long d;
    long vis;
    Control nextFree;

    Control(Engine engine) {
        this.engine = engine;
    }

    @Override
    public boolean emit() {
        if (engine.writeControl(channel, dest, type, a, b, c, d, vis)) {
            engine.releaseControl(this);
            return true;
        }
        return false;
    }
}
