package org.hympj.shm.hints;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Communicators with hints (Comm#dup(Map)), through the real launcher. */
class CommHintsTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void hintsOnAModelledJob() {
        MultiRank.runAndPass(MultiRank.spec(4, CommHintsRank.class, "modelled").model("ha-pacs").subcluster(4),
            CommHintsRank.MODELLED);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void hintsOnANativeJob() {
        MultiRank.runAndPass(MultiRank.spec(2, CommHintsRank.class, "native"), CommHintsRank.NATIVE);
    }
}
