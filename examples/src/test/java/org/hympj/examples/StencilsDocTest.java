package org.hympj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/STENCILS.md quotes real code: every ```java block preceded by an
 * {@code <!-- excerpt: PATH -->} line must appear verbatim, as consecutive lines, in PATH.
 */
class StencilsDocTest {
    private static final String MARK = "<!-- excerpt: ";

    @Test
    void excerptsAreVerbatimInTheirSourceFiles() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();      // Surefire runs in the module directory
        List<String> doc = Files.readAllLines(root.resolve("docs/STENCILS.md"));
        int excerpts = 0;
        for (int x = 0; x < doc.size(); x++) {
            String line = doc.get(x).trim();
            if (!line.startsWith(MARK)) {
                continue;
            }
            String path = line.substring(MARK.length(), line.length() - "-->".length()).trim();
            assertEquals("```java", doc.get(x + 1).trim(), "an excerpt mark must precede a java block");
            List<String> block = new ArrayList<>();
            int y = x + 2;
            while (!doc.get(y).trim().equals("```")) {
                block.add(doc.get(y));
                y++;
            }
            assertTrue(block.size() >= 5, "excerpt from " + path + " is too short");
            List<String> source = Files.readAllLines(root.resolve(path));
            assertTrue(contains(source, block), "docs/STENCILS.md line " + (x + 1) + ": the excerpt is not verbatim in "
                + path + ":\n" + String.join("\n", block));
            excerpts++;
        }
        assertTrue(excerpts >= 2, "expected the two Heat3D excerpts, found " + excerpts);
    }

    private static boolean contains(List<String> source, List<String> block) {
        for (int s = 0; s + block.size() <= source.size(); s++) {
            if (source.subList(s, s + block.size()).equals(block)) {
                return true;
            }
        }
        return false;
    }
}
