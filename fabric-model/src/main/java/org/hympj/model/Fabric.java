package org.hympj.model;

/** The fabrics a message can take. */
public enum Fabric {
    /** Native shared memory, no timing model. */
    SHM,
    /** TCA/PEACH2 (or, under the tofu model, the ToFu RDMA fabric): write-only puts by DMA engines. */
    TCA,
    /** InfiniBand with MPI's two-sided protocols. */
    IB
}
