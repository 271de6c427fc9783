package org.hympj.spi;

import org.hympj.api.Datatype;

/** The layouts the fabrics and the router distinguish (S1). */
public enum Layout {
    /** One contiguous run. */
    CONTIGUOUS,
    /** Blocks of more than one element with gaps (a TCA block-stride descriptor moves it without packing). */
    BLOCK_STRIDE,
    /** Single elements with gaps (packed first on every fabric). */
    ELEMENT_STRIDE;

    /** The layout of {@code count} items of {@code type}. */
    public static Layout of(Datatype type, int count) {
        if (type.isContiguous() || (count <= 1 && type.dimensions() == 0)) {
            return CONTIGUOUS;
        }
        return type.blockLength() == 1 ? ELEMENT_STRIDE : BLOCK_STRIDE;
    }

    /** The name used in route tables and statistics: contiguous, block-stride, element-stride. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
