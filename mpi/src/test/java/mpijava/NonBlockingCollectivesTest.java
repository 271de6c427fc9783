package mpijava;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link NonBlockingCollectives} through the real launcher at 1, 2, 3, 4 and 8 ranks. */
class NonBlockingCollectivesTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void nonBlockingAndPersistentCollectives(int np) {
        Jobs.runAndPass(np, NonBlockingCollectives.class, "nonblocking", "overlap", "persistent", "irregular", "objects", "errors");
    }
}
