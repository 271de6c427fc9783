package org.hympj.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Model parameters out of range are refused at load, naming the key, the value and the range. */
class ModelRulesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"ha-pacs", "tofu"})
    void everyKeyOfEveryPresetHasARuleAndPasses(String preset) throws IOException {
        Properties p = new Properties();
        try (InputStream in = ModelParams.class.getResourceAsStream(preset + ".properties")) {
            p.load(in);
        }
        for (String k : p.stringPropertyNames()) {
            assertTrue(ModelRules.keys().contains(k), preset + ": key " + k + " has no rule");
        }
        assertEquals(preset, ModelParams.load(preset).name());
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "tca.dma.engines | 0 | must be an integer >= 1",
        "tca.dma.engines | 2.5 | must be an integer >= 1",
        "tca.pio.latency | -3 | must be a finite number >= 0",
        "ib.latency | NaN | must be a finite number >= 0",
        "ib.rndv.cost | Infinity | must be a finite number >= 0",
        "tca.dma.bandwidth | 0 | must be a finite number > 0",
        "ib.link.bandwidth | -1 | must be a finite number > 0",
        "ib.pipeline.chunk | 0 | must be an integer >= 1",
        "ib.eager.limit | -1 | must be an integer >= 0",
        "tca.cache.entries | 0 | must be an integer >= 1",
        "tca.cache.policy | random | must be one of lru, lfu, fifo",
        "topology | ring | must be one of rings, torus2d",
        "model.torus | 4by2 | must be XxY",
        "tca.hop.latency | fast | must be a finite number >= 0"})
    void outOfRangeValueIsRefusedNamingKeyValueAndRange(String key, String value, String rule) throws IOException {
        Path f = tmp.resolve("bad.properties");
        Files.writeString(f, "base = ha-pacs\nname = bad\n" + key + " = " + value + "\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelParams.load(f.toString()));
        assertTrue(e.getMessage().contains(key + " = " + value + ": " + rule), e.getMessage());
    }

    @Test
    void misspeltKeyIsRefused() throws IOException {
        Path f = tmp.resolve("typo.properties");
        Files.writeString(f, "base = tofu\ntca.dma.engine = 2\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelParams.load(f.toString()));
        assertTrue(e.getMessage().contains("unknown parameter tca.dma.engine = 2"), e.getMessage());
    }

    @Test
    void zeroWhereZeroMeansNoneIsAccepted() {
        ModelParams p = ModelParams.load("ha-pacs").with("tca.pio.limit", "0").with("ib.pack.fixed.cost", "0");
        assertEquals(0, p.count("tca.pio.limit"));
    }

    @Test
    void withChecksTheNewValue() {
        ModelParams p = ModelParams.load("tofu");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.with("tca.dma.engines", "0"));
        assertTrue(e.getMessage().contains("tca.dma.engines = 0: must be an integer >= 1"), e.getMessage());
    }
}
