#ifndef REALMTUI_CNCURSES_SHIM_H
#define REALMTUI_CNCURSES_SHIM_H
// ncursesw for RealmTUI's terminal backend (Sources/RealmTUI/Terminal, the only user).
// SwiftPM drops pkg-config's -D flags, so the wide-character API is switched on here.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

extern int wcwidth(wchar_t);

// C globals Swift 6 rejects (shared mutable state): read through functions.
static inline WINDOW *rt_stdscr(void) { return stdscr; }
static inline WINDOW *rt_curscr(void) { return curscr; }
static inline FILE *rt_stdin(void) { return stdin; }
static inline FILE *rt_stdout(void) { return stdout; }
static inline int rt_color_pairs(void) { return COLOR_PAIRS; }
static inline int rt_colors(void) { return COLORS; }

// Macros Swift cannot import.
static inline attr_t rt_wa_bold(void) { return WA_BOLD; }
static inline attr_t rt_wa_dim(void) { return WA_DIM; }
static inline attr_t rt_wa_reverse(void) { return WA_REVERSE; }
static inline attr_t rt_wa_underline(void) { return WA_UNDERLINE; }
static inline attr_t rt_wa_normal(void) { return WA_NORMAL; }
static inline int rt_ccharw_max(void) { return CCHARW_MAX; }
static inline int rt_key_f0(void) { return KEY_F0; }

static inline mmask_t rt_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t rt_button1_pressed(void) { return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED; }
static inline mmask_t rt_button2_pressed(void) { return BUTTON2_PRESSED | BUTTON2_CLICKED | BUTTON2_DOUBLE_CLICKED | BUTTON2_TRIPLE_CLICKED; }
static inline mmask_t rt_button3_pressed(void) { return BUTTON3_PRESSED | BUTTON3_CLICKED | BUTTON3_DOUBLE_CLICKED | BUTTON3_TRIPLE_CLICKED; }
static inline mmask_t rt_button4_pressed(void) { return BUTTON4_PRESSED; }
/// One mouse report bit: `kind` 1 released, 2 pressed, 4 clicked, of button 1…5.
static inline mmask_t rt_button_event(int button, mmask_t kind) { return NCURSES_MOUSE_MASK(button, kind); }
#ifdef BUTTON5_PRESSED
static inline mmask_t rt_button5_pressed(void) { return BUTTON5_PRESSED; }
#else
static inline mmask_t rt_button5_pressed(void) { return 0; }
#endif

/// A terminfo string capability, or NULL when the terminal has none (tigetstr's -1 included).
static inline const char *rt_tigetstr(const char *name) {
    char *value = tigetstr(name);
    return (value == (char *)-1) ? NULL : value;
}

/// Loads the terminfo entry of $TERM for `fd` without taking the screen, so its capabilities
/// can be read before `newterm`; 0 when there is none. `rt_release_probe` frees it.
static inline int rt_probe_terminal(int fd) {
    int error = 0;
    return setupterm(NULL, fd, &error) == OK;
}
static inline void rt_release_probe(void) {
    if (cur_term != NULL) { del_curterm(cur_term); }
}

#endif
