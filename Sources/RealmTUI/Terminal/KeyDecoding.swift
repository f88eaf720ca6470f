import CNCurses

/// What `wget_wch` returns, decoded into the explorer's `Key` and `MouseEvent`. Kept apart from
/// the terminal (plain numbers in, values out) so every mapping is tested without one.
enum KeyDecoding {
    /// The key for a character `wget_wch` returned with `OK` (not a function key), or nil for a
    /// code the explorer has no key for (a C1 control, an invalid scalar).
    ///
    /// Enter arrives as `\n` or `\r` (ctrl-j, ctrl-m), Backspace as 127 or 8 (ctrl-h), Tab as 9
    /// (ctrl-i): those control codes are the keys, not `.control`.
    static func character(_ code: UInt32) -> Key? {
        switch code {
        case 10, 13: return .enter
        case 9: return .tab
        case 8, 127: return .backspace
        case 27: return .escape
        case 0: return .control(" ")
        case 1...26: return Unicode.Scalar(code + 96).map { .control(Character($0)) }
        case 28: return .control("\\")
        case 29: return .control("]")
        case 30: return .control("^")
        case 31: return .control("_")
        case 0x80...0x9F: return nil
        default: return Unicode.Scalar(code).map { .character(Character($0)) }
        }
    }

    /// The key for a function-key code (`wget_wch` returned `KEY_CODE_YES`), or nil for one the
    /// explorer does not use. `KEY_RESIZE` and `KEY_MOUSE` are events of their own, not keys.
    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP, KEY_SR: return .up
        case KEY_DOWN, KEY_SF: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME, KEY_A1, KEY_FIND, KEY_BEG: return .home
        case KEY_END, KEY_C1, KEY_SELECT, KEY_LL: return .end
        case KEY_PPAGE, KEY_A3: return .pageUp
        case KEY_NPAGE, KEY_C3: return .pageDown
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        default:
            let f0 = rt_key_f0()
            if code > f0 && code <= f0 + 63 { return .function(Int(code - f0)) }
            return nil
        }
    }

    /// The mouse event for a `getmouse` report (`state` is `MEVENT.bstate`), or nil for one the
    /// explorer ignores (a release, a motion report).
    static func mouse(state: mmask_t, column: Int32, row: Int32) -> MouseEvent? {
        let kind: MouseEvent.Kind
        if state & rt_button4_pressed() != 0 {
            kind = .wheelUp
        } else if state & rt_button5_pressed() != 0 {
            kind = .wheelDown
        } else if state & rt_button1_pressed() != 0 {
            kind = .press(button: 1)
        } else if state & rt_button2_pressed() != 0 {
            kind = .press(button: 2)
        } else if state & rt_button3_pressed() != 0 {
            kind = .press(button: 3)
        } else {
            return nil
        }
        return MouseEvent(kind, column: Int(max(0, column)), row: Int(max(0, row)))
    }
}
