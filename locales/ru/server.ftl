### Messages only the daemon formats: kept out of the page's WebAssembly.

# The 401 page, the refused-form page and the exports (rendered by the daemon)
unauthorized-title = Сначала подключите это устройство
unauthorized-body = На этой странице Hark — вопросы от чьих-то ИИ-агентов, поэтому она открывается только на компьютере владельца или на подключённом к нему устройстве.
unauthorized-wrong = Эта ссылка для подключения неверна или больше не действует: код подключения заменили.
unauthorized-too-many = С этого устройства пришло слишком много неверных кодов. Подождите минуту и попробуйте снова.
unauthorized-how = Чтобы подключиться, откройте на компьютере с Hark «Настройки» → «Отвечать с телефона» и отсканируйте QR-код или выполните там «hark url».
bad-request-title = Hark не смог прочитать эту форму
export-title = Вопросы от ваших агентов
export-asked = Задан { $when }
export-by = от { $client }
export-messages-title = Сообщения вашим агентам
export-message-waiting = ждёт агента
export-message-delivered = доставлено { $when }
export-images = { $count ->
    [one] Приложено { $count } изображение (оно есть в экспорте JSON)
    [few] Приложено { $count } изображения (они есть в экспорте JSON)
   *[many] Приложено { $count } изображений (они есть в экспорте JSON)
}

# Pushes to the phone (ntfy)
push-waiting = Hark: вас ждёт вопрос
push-open = Открыть
push-open-on-computer = Чтобы ответить, откройте Hark на компьютере.
push-test = Hark может достучаться до этого телефона. Вопросы от ваших агентов будут появляться здесь.
push-session = Hark: один из ваших агентов закончил ход или ждёт вас
push-reply = Ответить

# How a question ended (pushes and chat messages)
outcome-answered = Ответ: { $answer }
outcome-declined = Пропущено
outcome-timeout = Время вышло, ответа не было
outcome-cancelled = Агент отозвал вопрос

# Chat apps: the walk's buttons, tell, reminders, and Telegram's reply prompts
chat-step = Вопрос { $step } из { $count }
chat-tell-sent = Отправлено: { $agent }. Агент получит сообщение, когда в следующий раз обратится к Hark.
chat-tell-empty = Напишите сообщение после /tell, например: /tell используй тестовую базу данных
chat-tell-nobody = Ещё ни один агент ничего не спрашивал, так что передать сообщение некому.
chat-tell-too-long = Сообщение слишком длинное для агента: не больше 4000 символов.
chat-tell-too-many = Для этого агента уже ждёт слишком много сообщений; он получит их, когда в следующий раз обратится к Hark.
chat-tell-failed = Hark не смог сохранить сообщение; отправьте его ещё раз.
chat-ticked = Отмечено: { $options }
chat-send = Отправить
chat-other = Другое…
chat-answer = Ответить…
chat-skip = Пропустить
chat-skip-now = Пропустить без пояснения
chat-back = Назад
telegram-own-words-prompt = Напишите ответ и отправьте его ответом на это сообщение.
telegram-skip-note-prompt = Почему пропускаете? Ответьте пояснением для агента или нажмите «Пропустить без пояснения».
telegram-reply-placeholder = Ваш ответ
chat-declined-note = Пропущено: { $note }
chat-remind = { $count ->
    [one] Вас всё ещё ждёт { $count } вопрос:
    [few] Вас всё ещё ждут { $count } вопроса:
   *[many] Вас всё ещё ждут { $count } вопросов:
}
chat-stale = { $channel ->
        [wechat] Этот ответ написан до того, как появился вопрос, поэтому он не учтён. Вот вопрос ещё раз:
       *[other] Эта кнопка устарела: используйте текущие кнопки сообщения.
    }
chat-closed = На этот вопрос уже ответили, или он закрыт.
chat-tick-first = { $channel ->
        [wechat] Ответьте хотя бы одним номером варианта.
       *[other] Сначала отметьте хотя бы один вариант или выберите «Другое…».
    }
chat-answer-sent = Ответ отправлен.
chat-skipped = Пропущено.
chat-too-long = Ответ слишком длинный, отправьте покороче.
chat-not-recorded = Hark не смог сейчас это сохранить. Попробуйте чуть позже.
chat-skip-word = пропустить
chat-text-only = Hark читает только текст: ответьте номером или словами.
chat-nothing-waiting = Сейчас нет вопросов, ждущих вашего ответа.
chat-no-such-option = Варианта с таким номером нет.
chat-one-option = В этом вопросе выбирается один вариант: ответьте одним номером.

# WeChat (только текст: ответ номером, словами или словом пропуска)
wechat-recommended = рекомендуется
wechat-how-one = Ответьте номером выбранного варианта.
wechat-how-many = Ответьте номерами выбранных вариантов, например 1 3.
wechat-how-words = Или напишите свой ответ.
wechat-how-text = Напишите ответ.
wechat-how-skip = Чтобы отказаться, ответьте «{ $skip }» — можно с пояснением после слова.
wechat-more-waiting = { $count ->
    [one] После этого ждёт ещё { $count } вопрос.
    [few] После этого ждут ещё { $count } вопроса.
   *[other] После этого ждут ещё { $count } вопросов.
}
wechat-via = { $place ->
    [page] на странице Hark
    [client] в окне самого агента
    [rule] по сохранённому правилу
   *[push] из push-уведомления
}
wechat-via-channel = в { $channel }
wechat-closed-via = «{ $name }»: { $outcome } ({ $place }).
wechat-closed = «{ $name }»: { $outcome }.
wechat-answer-sent = Ответ отправлен: { $answer }
wechat-skipped = Пропущено.
wechat-skipped-note = Пропущено: { $note }
wechat-remind = Этот вопрос всё ещё ждёт вашего ответа.

# Запросы разрешений Claude Code и Codex, заданные в Hark (`hark hook`)
hook-permission = Разрешить { $tool }?
# A command shown literally: what stands for long runs of blanks and empty lines, and a cut
literal-blanks = ⟨пробелов: { $count }⟩
literal-empty-lines = ⟨пустых строк: { $count }⟩
literal-cut = ⟨ещё символов не показано: { $count }⟩
hook-allow = Разрешить
hook-deny = Запретить
# What Cursor shows the person when a call was denied in Hark
hook-denied = Отклонено в Hark.
# Форма другого MCP-сервера, заданная в Hark (хук Elicitation в Claude Code)
hook-elicitation-title = { $server }: { $message }
hook-yes = Да
hook-no = Нет
hook-leave-empty = Оставить пустым
hook-not-number = «{ $typed }» — не число.
hook-not-integer = «{ $typed }» — не целое число.
hook-too-small = Значение меньше минимального ({ $min }).
hook-too-large = Значение больше максимального ({ $max }).
hook-too-short = Слишком коротко: нужно не меньше { $min } символов.
hook-too-long = Слишком длинно: не больше { $max } символов.
hook-too-few = Отметьте не меньше { $min }.
hook-too-many = Отметьте не больше { $max }.
hook-not-format = { $format ->
    [email] Это не адрес электронной почты.
    [uri] Это не полный веб-адрес (например, https://example.com).
    [date] Это не дата: напишите в виде 2026-12-31.
   *[date-time] Это не дата и время: напишите в виде 2026-12-31T17:00:00Z.
}
# План, ждущий одобрения (ExitPlanMode в Claude Code)
hook-plan-header = План
hook-plan-ask = План от { $agent } готов и ждёт вашего разрешения начать.
hook-plan-approve = Одобрить
hook-plan-keep = Продолжить планирование
# «Всегда разрешать»: правило, предложенное агентом, показано до того, как оно сохранится
hook-always-allow = Всегда разрешать { $rule }
hook-always-mode = Разрешить и перейти в режим { $mode }
hook-always-kept = Сохраняется в { $place }
hook-always-session = До конца этого сеанса
hook-always-allow-call = Всегда разрешать
hook-always-allow-means = Разрешить сейчас, и впредь Hark будет без вопросов разрешать { $agent } точно такой же вызов. Отменить это можно в настройках Hark.
hook-always-deny-call = Всегда запрещать
hook-always-deny-means = Запретить сейчас, и впредь Hark будет без вопросов запрещать { $agent } точно такой же вызов. Отменить это можно в настройках Hark.

# Chat apps' reply windows (Slack's and Discord's modals, SPEC §17)
chat-pick = Выберите варианты
chat-answer-title = Ваш ответ
chat-answer-label = Ваш ответ для агента
chat-skip-title = Пропустить вопрос
chat-skip-label = Почему пропускаете? Пояснение для агента (необязательно)
chat-cancel = Отмена

# Общее для всех чатов (движок чатов): $app — название приложения, $setup — команда настройки, $channel — его имя в настройках
chat-app = { $channel ->
        [slack] Slack
        [discord] Discord
        [feishu] Feishu/Lark
        [telegram] Telegram
       *[wechat] WeChat
    }
chat-test = { $channel ->
        [telegram] Hark может писать в этот чат. Вопросы от ваших агентов будут появляться здесь.
        [wechat] Hark может писать в этот WeChat. Вопросы ваших агентов будут появляться здесь.
       *[other] Hark может писать вам сюда. Вопросы от ваших агентов будут появляться здесь.
    }
chat-paired = Готово. Вопросы от ваших агентов будут приходить сюда, и отвечать на них можете только вы.
chat-pairing-failed = Hark не смог сохранить привязку. Проверьте компьютер, на котором работает Hark, и попробуйте снова.
chat-wrong-code = Код неверный. Возьмите действующий в настройках Hark или в «{ $setup }» и отправьте { $pair } с этим кодом.
chat-expired-code = Срок действия кода истёк. Получите новый в настройках Hark или в «{ $setup }».
chat-stranger = Извините, этот бот { $app } отвечает только своему владельцу. Если он ваш, отправьте { $pair } и код из настроек Hark или из «{ $setup }».
chat-use-buttons = { $channel ->
        [wechat] Этот вопрос принимает только свои варианты: ответьте номером.
        [telegram] Нажмите кнопку под вопросом или ответьте на его сообщение, чтобы написать ответ своими словами. Чтобы что-то сказать агенту, напишите /tell и ваше сообщение.
        [feishu] Отвечайте кнопками и формой на карточке вопроса. Чтобы что-то сказать агенту, напишите tell и ваше сообщение или ответьте на вопрос.
       *[other] Отвечайте кнопками под вопросом. Чтобы что-то сказать агенту, напишите tell и ваше сообщение или ответьте на вопрос.
    }
chat-unpaired = { $channel ->
        [wechat] Hark вышел из этого WeChat: вопросы сюда больше не придут.
       *[other] Здесь вы больше не привязаны к Hark: вопросы сюда приходить не будут.
    }
chat-not-yours = Этот бот отвечает только своему владельцу.
chat-private-only = Привязывайте бота в личном чате с ним, а не в группе.
chat-already-paired = Этот чат уже привязан: вопросы от ваших агентов приходят сюда.

chat-session-reply = { $channel ->
        [wechat] Чтобы ответить, отправьте «/tell» и ваш текст.
       *[other] Ответьте на это сообщение, чтобы передать ответ агенту.
    }
