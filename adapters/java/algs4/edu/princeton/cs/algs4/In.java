package edu.princeton.cs.algs4;

import java.io.BufferedInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.InputMismatchException;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Scanner;
import java.util.regex.Pattern;

/**
 * Reads whitespace-separated tokens, lines or the whole text from a file, a URL, a socket or standard
 * input. The grader's stand-in for the textbook class of the same name and API.
 */
public final class In {
    private static final Pattern TOKEN_SEPARATOR = Pattern.compile("\\p{javaWhitespace}+");
    private static final Pattern ANY_CHAR = Pattern.compile("");
    private static final Pattern WHOLE_INPUT = Pattern.compile("\\A");

    private Scanner scanner;

    /** Reads standard input. */
    public In() {
        scanner = open(new BufferedInputStream(System.in));
    }

    public In(Socket socket) {
        if (socket == null) throw new IllegalArgumentException("socket argument is null");
        try {
            scanner = open(socket.getInputStream());
        } catch (IOException e) {
            throw new IllegalArgumentException("could not open " + socket, e);
        }
    }

    public In(URL url) {
        if (url == null) throw new IllegalArgumentException("url argument is null");
        try {
            scanner = open(url.openStream());
        } catch (IOException e) {
            throw new IllegalArgumentException("could not open " + url, e);
        }
    }

    public In(File file) {
        if (file == null) throw new IllegalArgumentException("file argument is null");
        try {
            scanner = open(new FileInputStream(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("could not open " + file, e);
        }
    }

    /** Opens a file by name, else a resource on the class path, else a URL. */
    public In(String name) {
        if (name == null) throw new IllegalArgumentException("argument is null");
        if (name.isEmpty()) throw new IllegalArgumentException("argument is the empty string");
        try {
            File file = new File(name);
            if (file.exists()) {
                scanner = open(new FileInputStream(file));
                return;
            }
            InputStream resource = In.class.getResourceAsStream(name);
            if (resource == null) resource = In.class.getClassLoader().getResourceAsStream(name);
            if (resource != null) {
                scanner = open(resource);
                return;
            }
            scanner = open(new URL(name).openStream());
        } catch (IOException e) {
            throw new IllegalArgumentException("could not open " + name, e);
        }
    }

    public In(Scanner scanner) {
        if (scanner == null) throw new IllegalArgumentException("scanner argument is null");
        this.scanner = scanner;
    }

    private static Scanner open(InputStream stream) {
        Scanner s = new Scanner(new BufferedInputStream(stream), StandardCharsets.UTF_8);
        s.useLocale(Locale.US);
        return s;
    }

    public boolean exists() {
        return scanner != null;
    }

    public boolean isEmpty() {
        return !scanner.hasNext();
    }

    public boolean hasNextLine() {
        return scanner.hasNextLine();
    }

    public boolean hasNextChar() {
        scanner.useDelimiter(ANY_CHAR);
        boolean result = scanner.hasNext();
        scanner.useDelimiter(TOKEN_SEPARATOR);
        return result;
    }

    public String readLine() {
        try {
            return scanner.nextLine();
        } catch (NoSuchElementException e) {
            return null;
        }
    }

    public char readChar() {
        scanner.useDelimiter(ANY_CHAR);
        try {
            String ch = scanner.next();
            return ch.charAt(0);
        } catch (NoSuchElementException e) {
            throw new NoSuchElementException("attempts to read a 'char' value from the input stream, but no more tokens are available");
        } finally {
            scanner.useDelimiter(TOKEN_SEPARATOR);
        }
    }

    public String readAll() {
        if (!scanner.hasNextLine()) return "";
        scanner.useDelimiter(WHOLE_INPUT);
        String result = scanner.next();
        scanner.useDelimiter(TOKEN_SEPARATOR);
        return result;
    }

    public String readString() {
        try {
            return scanner.next();
        } catch (NoSuchElementException e) {
            throw new NoSuchElementException("attempts to read a 'String' value from the input stream, but no more tokens are available");
        }
    }

    public int readInt() {
        try {
            return scanner.nextInt();
        } catch (InputMismatchException e) {
            throw new InputMismatchException("attempts to read an 'int' value from the input stream, but the next token is \"" + scanner.next() + "\"");
        } catch (NoSuchElementException e) {
            throw new NoSuchElementException("attempts to read an 'int' value from the input stream, but no more tokens are available");
        }
    }

    public double readDouble() {
        try {
            return scanner.nextDouble();
        } catch (InputMismatchException e) {
            throw new InputMismatchException("attempts to read a 'double' value from the input stream, but the next token is \"" + scanner.next() + "\"");
        } catch (NoSuchElementException e) {
            throw new NoSuchElementException("attempts to read a 'double' value from the input stream, but no more tokens are available");
        }
    }

    public float readFloat() {
        return (float) readDouble();
    }

    public long readLong() {
        try {
            return scanner.nextLong();
        } catch (InputMismatchException e) {
            throw new InputMismatchException("attempts to read a 'long' value from the input stream, but the next token is \"" + scanner.next() + "\"");
        } catch (NoSuchElementException e) {
            throw new NoSuchElementException("attempts to read a 'long' value from the input stream, but no more tokens are available");
        }
    }

    public short readShort() {
        return (short) readInt();
    }

    public byte readByte() {
        return (byte) readInt();
    }

    public boolean readBoolean() {
        String token = readString();
        if ("true".equalsIgnoreCase(token) || "1".equals(token)) return true;
        if ("false".equalsIgnoreCase(token) || "0".equals(token)) return false;
        throw new InputMismatchException("attempts to read a 'boolean' value from the input stream, but the next token is \"" + token + "\"");
    }

    public String[] readAllStrings() {
        String[] tokens = TOKEN_SEPARATOR.split(readAll());
        if (tokens.length == 0 || !tokens[0].isEmpty()) return tokens;
        String[] rest = new String[tokens.length - 1];
        System.arraycopy(tokens, 1, rest, 0, rest.length);
        return rest;
    }

    public String[] readAllLines() {
        ArrayList<String> lines = new ArrayList<>();
        while (hasNextLine()) lines.add(readLine());
        return lines.toArray(new String[0]);
    }

    public int[] readAllInts() {
        String[] tokens = readAllStrings();
        int[] values = new int[tokens.length];
        for (int i = 0; i < tokens.length; i++) values[i] = Integer.parseInt(tokens[i]);
        return values;
    }

    public long[] readAllLongs() {
        String[] tokens = readAllStrings();
        long[] values = new long[tokens.length];
        for (int i = 0; i < tokens.length; i++) values[i] = Long.parseLong(tokens[i]);
        return values;
    }

    public double[] readAllDoubles() {
        String[] tokens = readAllStrings();
        double[] values = new double[tokens.length];
        for (int i = 0; i < tokens.length; i++) values[i] = Double.parseDouble(tokens[i]);
        return values;
    }

    public void close() {
        scanner.close();
    }
}
