package org.hympj.api;

/** The primitive element kinds a {@link Datatype} is built from, with the Java array that holds them. */
public enum Primitive {
    BYTE(1, byte[].class),
    CHAR(2, char[].class),
    SHORT(2, short[].class),
    INT(4, int[].class),
    LONG(8, long[].class),
    FLOAT(4, float[].class),
    DOUBLE(8, double[].class);

    private final int bytes;
    private final Class<?> arrayClass;

    Primitive(int bytes, Class<?> arrayClass) {
        this.bytes = bytes;
        this.arrayClass = arrayClass;
    }

    /** Size of one element in bytes. */
    public int bytes() {
        return bytes;
    }

    /** The Java array class whose elements are of this kind, e.g. {@code double[].class}. */
    public Class<?> arrayClass() {
        return arrayClass;
    }
}
