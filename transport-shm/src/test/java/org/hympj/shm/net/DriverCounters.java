package org.hympj.shm.net;

import io.aeron.CncFileDescriptor;
import java.io.File;
import java.nio.MappedByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.hympj.shm.ShmMpj;

/**
 * The system counters of this rank's host media driver (its {@code cnc.dat} in the job's
 * directory), by label: what a rank program prints to show what the network did (NAKs sent,
 * retransmits), read as Aeron's own AeronStat reads them.
 */
final class DriverCounters {
    private DriverCounters() {
    }

    static Map<String, Long> read() {
        File cnc = new File(System.getenv(ShmMpj.ENV_JOB_DIR), "aeron/" + CncFileDescriptor.CNC_FILE);
        MappedByteBuffer buf = IoUtil.mapExistingFile(cnc, "cnc");
        try {
            UnsafeBuffer meta = CncFileDescriptor.createMetaDataBuffer(buf);
            CountersReader counters = new CountersReader(CncFileDescriptor.createCountersMetaDataBuffer(buf, meta),
                CncFileDescriptor.createCountersValuesBuffer(buf, meta));
            Map<String, Long> out = new HashMap<>();
            counters.forEach((id, type, key, label) -> out.merge(label, counters.getCounterValue(id), Long::sum));
            return out;
        } finally {
            IoUtil.unmap(buf);
        }
    }
}
